import type { ReactNode } from 'react';
import { AlertIcon } from './icons.js';

type AlertProps = {
  variant?: 'info' | 'destructive';
  title?: string;
  children?: ReactNode;
  action?: ReactNode;
};

export function Alert({ variant = 'info', title, children, action }: AlertProps) {
  const tone = variant === 'destructive' ? 'border-red-300 bg-red-50 text-red-900' : 'border-brand-200 bg-brand-50 text-brand-900';
  return (
    <div
      role={variant === 'destructive' ? 'alert' : 'status'}
      className={`flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center ${tone}`}
    >
      <AlertIcon size={20} className="shrink-0" />
      <div className="flex-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className="text-sm">{children}</div>}
      </div>
      {action}
    </div>
  );
}
