/** An address as its lines (from formatAddress), one under the other. */
export function AddressLines({ lines, className = '' }: { lines: readonly string[]; className?: string }) {
  return (
    <address className={`not-italic ${className}`}>
      {lines.map((line, i) => (
        <span key={i} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}
