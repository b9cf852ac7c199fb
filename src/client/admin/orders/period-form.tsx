import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { PeriodInput } from '../../../shared/schemas/reports.js';
import { Button } from '../../ui/button.js';
import { fieldAria } from '../components/admin-ui.js';

const dateCls =
  'h-10 rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-900 focus:outline-none focus:ring-2 focus:ring-brand-600 aria-invalid:border-red-700';

/**
 * A period of the shop's days, from one date to another, checked by the schema the server uses
 * (both dates, in order, at most a year). Used by the overview's custom period and the order
 * list's date filter; the dates are the shop's days (its time zone, Settings).
 */
export function PeriodForm({
  idPrefix,
  label,
  from,
  to,
  onApply,
  onClear,
}: {
  idPrefix: string;
  /** What the period filters, for screen readers ("Orders placed"). */
  label: string;
  from: string;
  to: string;
  onApply: (period: { from: string; to: string }) => void;
  /** Offered while a period is applied. */
  onClear?: () => void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof PeriodInput>, unknown, z.output<typeof PeriodInput>>({
    resolver: zodResolver(PeriodInput),
    values: { from, to },
  });
  const message = errors.from?.message ?? errors.to?.message;
  const errorId = `${idPrefix}-error`;
  const field = (name: 'from' | 'to', text: string) => {
    const id = `${idPrefix}-${name}`;
    return (
      // On a phone the label sits above its date, so both dates share one row.
      <div className="flex min-w-0 flex-col gap-1 sm:flex-row sm:items-center sm:gap-2">
        <label htmlFor={id} className="text-sm font-medium text-stone-900">
          {text}
        </label>
        <input
          id={id}
          type="date"
          min="2000-01-01"
          max="2099-12-31"
          className={`${dateCls} w-full min-w-0 sm:w-auto`}
          {...register(name)}
          {...fieldAria(errors[name]?.message, errorId)}
        />
      </div>
    );
  };
  return (
    <form
      noValidate
      aria-label={label}
      onSubmit={(e) => void handleSubmit((v) => onApply({ from: v.from ?? '', to: v.to ?? '' }))(e)}
      className="flex flex-col gap-1"
    >
      <div className="grid grid-cols-2 items-end gap-x-3 gap-y-2 sm:flex sm:flex-wrap sm:items-center">
        {field('from', 'From')}
        {field('to', 'To')}
        <div className="col-span-2 flex gap-2">
          <Button type="submit" variant="outline">
            Apply
          </Button>
          {onClear && (from || to) && (
            <Button variant="ghost" onClick={onClear}>
              Clear dates
            </Button>
          )}
        </div>
      </div>
      {message && (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
    </form>
  );
}
