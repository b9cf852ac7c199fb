import { useId, useState } from 'react';
import { MinusIcon, PlusIcon } from './icons.js';

type QuantityStepperProps = {
  value: number;
  min?: number;
  /** Upper bound (the product's inventory); undefined when unknown. */
  max?: number;
  onChange: (value: number) => void;
  label?: string;
  disabled?: boolean;
  size?: 'sm' | 'md';
};

function clampQuantity(n: number, min: number, max: number | undefined): number {
  if (!Number.isFinite(n)) return min;
  const whole = Math.floor(n);
  const upper = max === undefined ? whole : Math.min(whole, max);
  return Math.max(min, upper);
}

export function QuantityStepper({
  value,
  min = 1,
  max,
  onChange,
  label = 'Quantity',
  disabled = false,
  size = 'md',
}: QuantityStepperProps) {
  const id = useId();
  // While typing, the field may be briefly empty or out of range; it settles on blur.
  const [draft, setDraft] = useState<string | null>(null);
  const box = size === 'sm' ? 'h-9 w-9' : 'h-11 w-11';
  const btn =
    `${box} inline-flex items-center justify-center text-stone-800 hover:bg-stone-100 ` +
    'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50';
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="inline-flex w-fit items-center overflow-hidden rounded-md border border-stone-400">
        <button
          type="button"
          className={btn}
          aria-label="Decrease quantity"
          disabled={disabled || value <= min}
          onClick={() => onChange(clampQuantity(value - 1, min, max))}
        >
          <MinusIcon size={16} />
        </button>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          value={draft ?? String(value)}
          disabled={disabled}
          onChange={(e) => {
            const raw = e.currentTarget.value;
            setDraft(raw);
            const n = Number.parseInt(raw, 10);
            if (!Number.isNaN(n)) onChange(clampQuantity(n, min, max));
          }}
          onBlur={() => setDraft(null)}
          className={`${size === 'sm' ? 'h-9 w-12' : 'h-11 w-14'} border-x border-stone-400 text-center text-base [appearance:textfield] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none`}
        />
        <button
          type="button"
          className={btn}
          aria-label="Increase quantity"
          disabled={disabled || (max !== undefined && value >= max)}
          onClick={() => onChange(clampQuantity(value + 1, min, max))}
        >
          <PlusIcon size={16} />
        </button>
      </div>
    </div>
  );
}
