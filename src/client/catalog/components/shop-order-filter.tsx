import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { priceParam, type ProductsFilter } from '../../../shared/products-filter.js';
import { paths } from '../../lib/paths.js';

const SORT_LABELS = {
  shop: 'Shop order',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  newest: 'Newest',
  // Average stars, then the number of reviews; products without reviews last (issue [6/8]).
  rating: 'Top rated',
} as const;
type SortValue = keyof typeof SORT_LABELS;

const PRICE_RANGE_ERROR = 'The lowest price cannot be more than the highest.';

type Choice = { sort: ProductsFilter['sort']; minPriceCents: number | undefined; maxPriceCents: number | undefined };

const fieldCls =
  'h-11 rounded-md border border-stone-400 bg-white px-3 text-base text-stone-900 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600';

/** Dollars typed in a price field, in cents; undefined when empty; null when not an amount. */
function typedCents(text: string): number | undefined | null {
  const t = text.trim();
  if (t === '') return undefined;
  return /^\d{1,6}(\.\d{1,2})?$/.test(t) ? Math.round(Number(t) * 100) : null;
}

/**
 * The shop's order and price range. A plain GET form to /products, so it works before (and
 * without) the page's scripts; with them, a choice navigates in place.
 */
export function ShopOrderFilter({ filter, onChange }: { filter: ProductsFilter; onChange: (choice: Choice) => void }) {
  const id = useId();
  const [min, setMin] = useState(filter.minPriceCents === undefined ? '' : priceParam(filter.minPriceCents));
  const [max, setMax] = useState(filter.maxPriceCents === undefined ? '' : priceParam(filter.maxPriceCents));
  const [error, setError] = useState<string | null>(null);
  // Follow the URL (back button, Clear Filters) without fighting the shopper's typing.
  const [seen, setSeen] = useState(filter);
  if (seen.minPriceCents !== filter.minPriceCents || seen.maxPriceCents !== filter.maxPriceCents) {
    setSeen(filter);
    setMin(filter.minPriceCents === undefined ? '' : priceParam(filter.minPriceCents));
    setMax(filter.maxPriceCents === undefined ? '' : priceParam(filter.maxPriceCents));
  }

  // What the shopper did before this script arrived (the server drew the form; its code loads
  // beside the first-load script): a sort picked or prices typed then are taken up now, not lost.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const el = form.current;
    if (!el) return;
    const picked = (el.elements.namedItem('sort') as HTMLSelectElement | null)?.value;
    const typedMin = (el.elements.namedItem('minPrice') as HTMLInputElement | null)?.value ?? '';
    const typedMax = (el.elements.namedItem('maxPrice') as HTMLInputElement | null)?.value ?? '';
    if (typedMin !== min) setMin(typedMin);
    if (typedMax !== max) setMax(typedMax);
    if (picked && picked in SORT_LABELS && picked !== (filter.sort ?? 'shop')) {
      onChange({
        sort: picked === 'shop' ? undefined : (picked as ProductsFilter['sort']),
        minPriceCents: filter.minPriceCents,
        maxPriceCents: filter.maxPriceCents,
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the server's form comes alive
  }, []);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const minPriceCents = typedCents(min);
    const maxPriceCents = typedCents(max);
    if (minPriceCents === null || maxPriceCents === null) return setError('Enter prices in dollars, like 12 or 12.50.');
    if (minPriceCents !== undefined && maxPriceCents !== undefined && minPriceCents > maxPriceCents) return setError(PRICE_RANGE_ERROR);
    setError(null);
    onChange({ sort: filter.sort, minPriceCents, maxPriceCents });
  };

  return (
    <form
      ref={form}
      method="get"
      action={paths.products}
      onSubmit={apply}
      className="flex flex-wrap items-end gap-3"
      aria-label="Sort and price"
    >
      {filter.search && <input type="hidden" name="search" value={filter.search} />}
      {filter.category && <input type="hidden" name="category" value={filter.category} />}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-sort`} className="text-sm font-medium text-stone-700">
          Sort by
        </label>
        <select
          id={`${id}-sort`}
          name="sort"
          className={fieldCls}
          value={filter.sort ?? 'shop'}
          onChange={(e) => {
            const value = e.currentTarget.value as SortValue;
            onChange({
              sort: value === 'shop' ? undefined : value,
              minPriceCents: filter.minPriceCents,
              maxPriceCents: filter.maxPriceCents,
            });
          }}
        >
          {(Object.keys(SORT_LABELS) as SortValue[]).map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="flex items-end gap-2">
        <legend className="mb-1 text-sm font-medium text-stone-700">Price ($)</legend>
        <PriceField
          id={`${id}-min`}
          name="minPrice"
          label="Lowest price in dollars"
          placeholder="Min"
          value={min}
          onChange={setMin}
          error={error ? `${id}-error` : null}
        />
        <span aria-hidden="true" className="pb-2.5 text-stone-500">
          –
        </span>
        <PriceField
          id={`${id}-max`}
          name="maxPrice"
          label="Highest price in dollars"
          placeholder="Max"
          value={max}
          onChange={setMax}
          error={error ? `${id}-error` : null}
        />
      </fieldset>
      <button
        type="submit"
        className="h-11 rounded-md border border-stone-400 bg-white px-4 text-base font-medium text-stone-900 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        Apply
      </button>
      {error && (
        <p id={`${id}-error`} role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}

type PriceFieldProps = {
  id: string;
  name: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
};

/** One bound of the price range (dollars), labelled for screen readers. */
function PriceField({ id, name, label, placeholder, value, onChange, error }: PriceFieldProps) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        name={name}
        inputMode="decimal"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        className={`${fieldCls} w-24`}
        aria-invalid={error !== null}
        aria-describedby={error ?? undefined}
      />
    </>
  );
}
