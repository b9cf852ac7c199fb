import { useId } from 'react';
import type { ProductOption, VariantView } from '../../../shared/schemas/catalog.js';

/** What a value would give, with the other options as chosen: a variant to buy, one sold out, or none at all. */
export type ValueState = 'available' | 'sold-out' | 'unavailable';

/** The variant with exactly these option values, if the product has it. */
export function variantWith(variants: readonly VariantView[], values: readonly string[]): VariantView | undefined {
  return variants.find((v) => v.options.length === values.length && v.options.every((o, i) => o === values[i]));
}

/** Each value of an option, with the other options as chosen now. */
export function valueState(variants: readonly VariantView[], chosen: VariantView, optionIndex: number, value: string): ValueState {
  const v = variantWith(
    variants,
    chosen.options.map((o, i) => (i === optionIndex ? value : o)),
  );
  if (!v) return 'unavailable';
  return v.available > 0 ? 'available' : 'sold-out';
}

/**
 * The variant a shopper gets by choosing `value`: the one with the other options as chosen, else
 * the closest one that has the value (most options kept, one that can be bought first).
 */
export function variantForChoice(variants: readonly VariantView[], chosen: VariantView, optionIndex: number, value: string): VariantView {
  const wanted = chosen.options.map((o, i) => (i === optionIndex ? value : o));
  const exact = variantWith(variants, wanted);
  if (exact) return exact;
  const score = (v: VariantView) => v.options.reduce((n, o, i) => n + (o === wanted[i] ? 2 : 0), 0) + (v.available > 0 ? 1 : 0);
  const withValue = variants.filter((v) => v.options[optionIndex] === value);
  return withValue.reduce((best, v) => (score(v) > score(best) ? v : best), withValue[0] ?? chosen);
}

const VALUE_NOTE: Record<ValueState, string> = { available: '', 'sold-out': 'sold out', unavailable: 'not available in this combination' };

/**
 * One group of buttons per option (native radio buttons drawn as buttons: Tab reaches the group,
 * arrow keys move within it, a tap chooses). A value whose variant is sold out is struck through
 * and says so; one with no such variant (with the other options as chosen) is drawn dashed, and
 * choosing it moves to the closest variant that has it.
 */
export function VariantPicker({
  options,
  variants,
  chosen,
  onChoose,
}: {
  options: readonly ProductOption[];
  variants: readonly VariantView[];
  chosen: VariantView;
  onChoose: (variant: VariantView) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-4" data-variant-picker="">
      {options.map((option, i) => (
        <fieldset key={option.name} className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium text-stone-800">
            {option.name}: <span className="font-semibold text-stone-900">{chosen.options[i]}</span>
          </legend>
          <div className="flex flex-wrap gap-2">
            {option.values.map((value) => {
              const state = valueState(variants, chosen, i, value);
              const checked = chosen.options[i] === value;
              const inputId = `${id}-${i}-${value}`;
              return (
                <div key={value}>
                  <input
                    id={inputId}
                    type="radio"
                    name={`${id}-${i}`}
                    value={value}
                    checked={checked}
                    onChange={() => onChoose(variantForChoice(variants, chosen, i, value))}
                    className="peer sr-only"
                  />
                  <label
                    htmlFor={inputId}
                    data-state={state}
                    className={`inline-flex min-h-11 min-w-11 cursor-pointer select-none items-center justify-center rounded-md border px-4 text-sm font-medium transition-colors peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 ${
                      checked
                        ? 'border-brand-700 bg-brand-700 text-white'
                        : 'border-stone-300 bg-white text-stone-900 hover:border-brand-600'
                    } ${state === 'sold-out' ? 'line-through decoration-2' : ''} ${state === 'unavailable' ? 'border-dashed text-stone-500' : ''}`}
                  >
                    {value}
                    {state !== 'available' && <span className="sr-only">, {VALUE_NOTE[state]}</span>}
                  </label>
                </div>
              );
            })}
          </div>
        </fieldset>
      ))}
    </div>
  );
}
