export function Skeleton({ className = '' }: { className?: string }) {
  return <span aria-hidden="true" className={`block animate-pulse rounded-md bg-stone-200 motion-reduce:animate-none ${className}`} />;
}
