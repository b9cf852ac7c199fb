import type { UseFormRegisterReturn } from 'react-hook-form';
import type { OrderStockLine } from '../../../shared/schemas/inventory.js';
import { inputCls } from '../components/admin-ui.js';

/** The form's starting "Return to stock" quantities: every unit still out of an order not shipped, none of a shipped one. */
export function defaultReturnLines(lines: readonly OrderStockLine[], shipped: boolean): { productId: string; quantity: string }[] {
  return lines.map((l) => ({ productId: l.productId, quantity: shipped ? '0' : String(l.out) }));
}

/**
 * "Return to stock": one quantity per line of the order (one per variant sold, named by its title,
 * "Cleaner — Lavender, 16 oz"), 0 up to the units the line still has out; they go back to that
 * variant's stock. A line with nothing out shows why instead of an input.
 */
export function ReturnLinesField({
  idPrefix,
  lines,
  shipped,
  field,
  errorOf,
}: {
  idPrefix: string;
  lines: readonly OrderStockLine[];
  shipped: boolean;
  /** The registered input of line `i` (`returnLines.${i}.quantity`). */
  field: (i: number) => UseFormRegisterReturn;
  errorOf: (i: number) => string | undefined;
}) {
  if (lines.length === 0) return null;
  const nothingOut = lines.every((l) => l.out === 0);
  return (
    <fieldset className="flex min-w-0 flex-col gap-2">
      <legend className="text-sm font-medium text-stone-900">Return to stock</legend>
      <p className="text-xs text-stone-600">
        {nothingOut
          ? 'None of this order’s units are out of stock: nothing to return.'
          : shipped
            ? 'This order has shipped: enter only the units that came back to the shelf.'
            : 'Not shipped yet: every unit still out goes back unless you change it.'}
      </p>
      <ul className="flex flex-col divide-y divide-stone-200 rounded-md border border-stone-200">
        {lines.map((l, i) => {
          const id = `${idPrefix}-return-${i}`;
          const error = errorOf(i);
          const counts = `${l.ordered} ordered · ${l.out} out of stock${l.returned > 0 ? ` · ${l.returned} returned` : ''}`;
          return (
            <li key={l.variantId} className="flex flex-col gap-1 px-3 py-2">
              <div className="flex items-center justify-between gap-3">
                <div className="min-w-0">
                  {l.out > 0 ? (
                    <label htmlFor={id} className="block break-words text-sm font-medium text-stone-900">
                      {l.name}
                    </label>
                  ) : (
                    <span className="block break-words text-sm font-medium text-stone-900">{l.name}</span>
                  )}
                  <span id={`${id}-counts`} className="block text-xs text-stone-600">
                    {counts}
                  </span>
                </div>
                {l.out > 0 ? (
                  <input
                    id={id}
                    type="number"
                    min="0"
                    max={l.out}
                    step="1"
                    inputMode="numeric"
                    className={`${inputCls} w-20! shrink-0 text-right`}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error ${id}-counts` : `${id}-counts`}
                    {...field(i)}
                  />
                ) : (
                  <span className="shrink-0 text-xs text-stone-600">none to return</span>
                )}
              </div>
              {error && (
                <p id={`${id}-error`} className="text-sm text-red-700">
                  {error}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
