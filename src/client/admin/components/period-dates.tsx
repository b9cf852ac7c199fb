import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../ui/button.js';
import { fieldAria } from './admin-ui.js';

const dateCls =
  'h-10 w-full min-w-0 rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-900 focus:outline-none focus:ring-2 focus:ring-brand-600 aria-invalid:border-red-700 sm:w-auto';

type Dates = { from?: string | undefined; to?: string | undefined };

/**
 * A figures panel's custom period: both dates, checked by the schema the server uses for that panel
 * (`schema`: in order, within its longest span), each error said next to the fields. `idPrefix`
 * keeps two panels' fields apart on one page.
 */
export function PeriodDates({
  from,
  to,
  onApply,
  schema,
  idPrefix,
}: {
  from: string;
  to: string;
  onApply: (p: { from: string; to: string }) => void;
  schema: z.ZodType<Dates, Dates>;
  idPrefix: string;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Dates, unknown, Dates>({ resolver: zodResolver(schema), values: { from, to } });
  const message = errors.from?.message ?? errors.to?.message;
  const errorId = `${idPrefix}-error`;
  const field = (name: 'from' | 'to', label: string) => (
    <div className="flex min-w-0 flex-col gap-1 sm:flex-row sm:items-center sm:gap-2">
      <label htmlFor={`${idPrefix}-${name}`} className="text-sm font-medium text-stone-900">
        {label}
      </label>
      <input
        id={`${idPrefix}-${name}`}
        type="date"
        min="2000-01-01"
        max="2099-12-31"
        className={dateCls}
        {...register(name)}
        {...fieldAria(errors[name]?.message, errorId)}
      />
    </div>
  );
  return (
    <form
      noValidate
      aria-label="Figures period"
      className="flex flex-col gap-1"
      onSubmit={(e) => void handleSubmit((v) => (v.from && v.to ? onApply({ from: v.from, to: v.to }) : undefined))(e)}
    >
      <div className="grid grid-cols-2 items-end gap-x-3 gap-y-2 sm:flex sm:flex-wrap sm:items-center">
        {field('from', 'From')}
        {field('to', 'To')}
        <div className="col-span-2">
          <Button type="submit" variant="outline">
            Apply
          </Button>
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
