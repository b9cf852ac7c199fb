import type { ReactNode } from 'react';

type ContainerProps = { children: ReactNode; className?: string; narrow?: boolean };

/** Page-width wrapper; `narrow` suits reading pages (FAQ, legal text). */
export function Container({ children, className = '', narrow = false }: ContainerProps) {
  return <div className={`mx-auto w-full ${narrow ? 'max-w-3xl' : 'max-w-7xl'} px-4 sm:px-6 lg:px-8 ${className}`}>{children}</div>;
}
