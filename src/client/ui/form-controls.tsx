import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { Button } from './button.js';

export function inputClasses(invalid = false): string {
  return `h-10 w-full rounded-md border bg-white px-3 text-base text-stone-900 placeholder:text-stone-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-1 sm:text-sm ${
    invalid ? 'border-red-600' : 'border-stone-300'
  }`;
}

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  /** Passed to the input (react-hook-form's `register` gives one, to read the value and focus the field). */
  ref?: Ref<HTMLInputElement>;
  id: string;
  label: string;
  /** The id of the form's error message while it is shown. */
  errorId?: string;
  /** This field's own problem, shown under it (outlined and described by it); wins over errorId. */
  error?: string | undefined;
  action?: ReactNode;
};

export function TextField({ id, label, errorId, error, action, className = '', ...input }: TextFieldProps) {
  const describedBy = error ? `${id}-error` : errorId;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-stone-800">
          {label}
        </label>
        {action}
      </div>
      <input
        id={id}
        aria-invalid={describedBy ? true : undefined}
        aria-describedby={describedBy}
        className={inputClasses(Boolean(describedBy))}
        {...input}
      />
      {error && <FieldError id={`${id}-error`} message={error} />}
    </div>
  );
}

/**
 * The ARIA of an input whose problem (if any) is shown under it in an element with id `errorId`:
 * outlined and described by it only while it is wrong. Spread it on inputs that are not a
 * TextField, e.g. with react-hook-form: `{...fieldAria(errors.email?.message, `${id}-error`)}`.
 */
export function fieldAria(message: string | undefined, errorId: string): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return message ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
}

/**
 * The schema's problem with the form as a whole: an issue on no field (a rule across fields, e.g.
 * "Passwords do not match"), which @hookform/resolvers reports under the empty name.
 */
export function formLevelError(errors: object): string | undefined {
  const whole: unknown = (errors as Record<string, unknown>)[''];
  return whole && typeof whole === 'object' && 'message' in whole && typeof whole.message === 'string' ? whole.message : undefined;
}

/** One field's problem, under it. */
export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className="text-sm text-red-700">
      {message}
    </p>
  );
}

/** The form's inline error, announced when it appears. */
export function FormError({ id, message }: { id: string; message: string | null }) {
  return (
    <p id={id} role="alert" className={message ? 'rounded-md bg-red-50 px-3 py-2 text-sm text-red-800' : 'sr-only'}>
      {message}
    </p>
  );
}

/** Bot trap: a field people never see or reach; a filled one marks the submit as automated. */
export function DecoyField({ id }: { id: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
      <label htmlFor={id}>Website</label>
      <input id={id} name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function SubmitButton({ pending, label, pendingLabel }: { pending: boolean; label: string; pendingLabel: string }) {
  return (
    <Button type="submit" size="lg" className="w-full" disabled={pending}>
      {pending ? pendingLabel : label}
    </Button>
  );
}

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <div className={`rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8 ${className}`}>{children}</div>;
}
