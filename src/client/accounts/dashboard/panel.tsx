import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../ui/button.js';
import { FormError } from '../../ui/form-controls.js';

/** A titled white card; the title labels the section for assistive technology. */
export function Panel({
  title,
  action,
  children,
  className = '',
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6 ${className}`}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold text-stone-900">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
      <p className="text-sm font-medium text-stone-600">{label}</p>
      <p className="text-3xl font-bold text-stone-900">{value}</p>
      {hint && <p className="text-sm text-stone-600">{hint}</p>}
    </div>
  );
}

/** A dashboard dialog's Cancel and submit buttons. */
export function DialogActions({
  pending,
  onCancel,
  label = 'Save',
  pendingLabel = 'Saving...',
  destructive = false,
}: {
  pending: boolean;
  onCancel: () => void;
  label?: string;
  pendingLabel?: string;
  destructive?: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <Button variant="ghost" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" variant={destructive ? 'destructive' : 'primary'} disabled={pending}>
        {pending ? pendingLabel : label}
      </Button>
    </div>
  );
}

/**
 * A dashboard dialog's form: what it is about (if anything), its one message (announced, with the
 * id `{id}-error` the fields point to), then the fields and buttons.
 */
export function DialogForm({
  id,
  message,
  onSubmit,
  intro,
  children,
}: {
  id: string;
  message: string | null;
  onSubmit: (e: FormEvent) => Promise<void>;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
      {intro}
      <FormError id={`${id}-error`} message={message} />
      {children}
    </form>
  );
}
