import { useQueries } from '@tanstack/react-query';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { formatCents } from '../../../shared/money.js';
import { taxCents } from '../../../shared/pricing.js';
import { OWNER_ORDER_MAX_LINES } from '../../../shared/schemas/owner-orders.js';
import { lineTitle } from '../../../shared/variants.js';
import { Button } from '../../ui/button.js';
import { usePickerSearch } from '../components/use-picker-search.js';
import { AdminProductPage, type AdminProduct } from '../api/admin-schemas.js';
import { getProductVariantsQueryOptions } from '../api/get-product-variants.js';
import { DollarInput, Field, fieldAria, inputCls } from '../components/admin-ui.js';
import type { OwnerOrderForm } from './variant-line-forms.js';

/**
 * What a line shows besides its quantity: the product, or the variant of a product with options,
 * as the search found it (its title, "Cleaner — Lavender, 16 oz", SKU, price and units available).
 */
export type LineProduct = {
  productId: string;
  /** The variant sold ('' for a product the search read without one: its first). */
  variantId: string;
  name: string;
  sku: string | null;
  priceCents: number;
  inventory: number;
};

/** A line is one variant: picking it again adds a unit. */
export function lineKey(l: { productId: string; variantId: string }): string {
  return l.variantId || l.productId;
}

const dollars = (text: string | undefined) => {
  const n = Number(text ?? '');
  return text && Number.isFinite(n) ? Math.round(n * 100) : 0;
};

/** A product without options is one line; a product with options lists each variant on sale (its stock the variant's). */
function choicesOf(p: AdminProduct, variants: ReturnType<typeof useVariantsOf>): LineProduct[] | 'loading' {
  if (p.variantCount <= 1) {
    return [
      { productId: p.id, variantId: p.soleVariantId ?? '', name: p.name, sku: p.sku, priceCents: p.priceCents, inventory: p.inventory },
    ];
  }
  const set = variants.get(p.id);
  if (!set) return 'loading';
  return set.variants
    .filter((v) => v.enabled)
    .map((v) => ({
      productId: p.id,
      variantId: v.id,
      name: lineTitle(p.name, v.label),
      sku: v.sku,
      priceCents: v.priceCents,
      inventory: v.stock.available,
    }));
}

/** The variants of the found products that have options (one read each, at most six). */
function useVariantsOf(products: readonly AdminProduct[]) {
  const withOptions = products.filter((p) => p.variantCount > 1);
  const answers = useQueries({ queries: withOptions.map((p) => getProductVariantsQueryOptions(p.id)) });
  return new Map(withOptions.flatMap((p, i) => (answers[i]?.data ? [[p.id, answers[i].data] as const] : [])));
}

/** Finds products by name or SKU with the Products tab's own search (GET /api/admin/products?search=); each variant is a choice. */
function ProductSearch({ onPick, disabled }: { onPick: (p: LineProduct) => void; disabled: boolean }) {
  const { text, setText, searching, results, isFetching } = usePickerSearch('/api/admin/products', AdminProductPage, 'products');
  const variants = useVariantsOf(results);
  type Choice = { line: LineProduct } | { loading: AdminProduct };
  const choices = results.flatMap((p): Choice[] => {
    const c = choicesOf(p, variants);
    return c === 'loading' ? [{ loading: p }] : c.map((line) => ({ line }));
  });
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor="order-product-search" className="text-sm font-medium text-stone-900">
        Add a product
      </label>
      <input
        id="order-product-search"
        type="search"
        className={inputCls}
        placeholder="Search products by name or SKU"
        value={text}
        maxLength={100}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        autoComplete="off"
      />
      {searching && (
        <ul className="flex max-h-64 flex-col overflow-y-auto rounded-md border border-stone-200" aria-label="Matching products">
          {results.length === 0 && <li className="p-2 text-sm text-stone-700">{isFetching ? 'Searching…' : 'No product matches.'}</li>}
          {choices.map((c) =>
            'loading' in c ? (
              <li key={c.loading.id} className="border-t border-stone-100 p-2 text-sm text-stone-700 first:border-t-0">
                {c.loading.name}: loading its variants…
              </li>
            ) : (
              <li key={lineKey(c.line)} className="border-t border-stone-100 first:border-t-0">
                <button
                  type="button"
                  disabled={c.line.inventory <= 0}
                  className="flex w-full items-start justify-between gap-3 p-2 text-left hover:bg-stone-50 focus-visible:bg-stone-50 disabled:cursor-not-allowed disabled:opacity-60"
                  onClick={() => {
                    onPick(c.line);
                    setText('');
                  }}
                >
                  <span className="min-w-0">
                    <span className="block break-words text-sm font-medium text-stone-900">{c.line.name}</span>
                    <span className="block text-xs text-stone-700">
                      {c.line.sku ? `SKU ${c.line.sku} · ` : ''}
                      {c.line.inventory > 0 ? `${c.line.inventory} in stock` : 'Out of stock'}
                    </span>
                  </span>
                  <span className="shrink-0 text-sm tabular-nums text-stone-900">{formatCents(c.line.priceCents)}</span>
                </button>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}

/**
 * A new order's products: searched by name or SKU, each with a quantity, then a discount and
 * shipping. The figures shown are an estimate from the catalogue as the search read it; the server
 * prices the order again from the catalogue and takes the stock, or says what is short.
 */
export function OrderLinesField({
  lines,
  products,
  register,
  errors,
  discount,
  shipping,
  onAdd,
  onRemove,
}: {
  lines: { productId: string; variantId: string; quantity: string }[];
  /** By line key (lineKey). */
  products: Map<string, LineProduct>;
  register: UseFormRegister<OwnerOrderForm>;
  errors: FieldErrors<OwnerOrderForm>;
  discount: string | undefined;
  shipping: string | undefined;
  onAdd: (p: LineProduct) => void;
  onRemove: (index: number) => void;
}) {
  const subtotal = lines.reduce((n, l) => n + (products.get(lineKey(l))?.priceCents ?? 0) * (Number(l.quantity) || 0), 0);
  const d = dollars(discount);
  const s = dollars(shipping);
  const tax = taxCents(subtotal, d, s);
  const linesError = errors.lines?.message ?? errors.lines?.root?.message;
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-stone-200 p-3">
      <legend className="px-1 text-sm font-medium text-stone-900">Products</legend>
      <p className="text-xs text-stone-600">
        Priced from the catalogue; the units leave stock when the order is created. Leave it empty to enter only a total.
      </p>
      <ProductSearch onPick={onAdd} disabled={lines.length >= OWNER_ORDER_MAX_LINES} />
      {linesError && <p className="text-sm text-red-700">{linesError}</p>}
      {lines.length > 0 && (
        <>
          <ul className="flex flex-col divide-y divide-stone-200 rounded-md border border-stone-200" aria-label="Order lines">
            {lines.map((l, i) => {
              const p = products.get(lineKey(l));
              const id = `order-line-${i}`;
              const error = errors.lines?.[i]?.quantity?.message ?? errors.lines?.[i]?.productId?.message;
              return (
                <li key={lineKey(l)} className="flex flex-col gap-1 px-3 py-2">
                  <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
                    <div className="min-w-0 flex-1 basis-40">
                      <label htmlFor={id} className="block break-words text-sm font-medium text-stone-900">
                        {p?.name ?? l.productId}
                      </label>
                      <span className="block text-xs text-stone-600">
                        {p?.sku ? `SKU ${p.sku} · ` : ''}
                        {p ? `${formatCents(p.priceCents)} each · ${p.inventory} in stock` : ''}
                      </span>
                    </div>
                    <div className="flex items-center gap-2">
                      <input
                        id={id}
                        type="number"
                        min="1"
                        max={p?.inventory ?? 999}
                        step="1"
                        inputMode="numeric"
                        className={`${inputCls} w-20! text-right`}
                        {...register(`lines.${i}.quantity`)}
                        {...fieldAria(error, `${id}-error`)}
                      />
                      <span className="w-20 text-right text-sm tabular-nums text-stone-900">
                        {formatCents((p?.priceCents ?? 0) * (Number(l.quantity) || 0))}
                      </span>
                      <Button variant="ghost" size="sm" onClick={() => onRemove(i)} aria-label={`Remove ${p?.name ?? 'line'}`}>
                        Remove
                      </Button>
                    </div>
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
          <div className="grid gap-3 sm:grid-cols-2">
            <Field
              label="Discount ($)"
              htmlFor="order-discount"
              error={errors.discountCents?.message}
              hint="Taken off the products' subtotal."
            >
              <DollarInput
                id="order-discount"
                {...register('discountCents')}
                {...fieldAria(errors.discountCents?.message, 'order-discount-error')}
              />
            </Field>
            <Field label="Shipping ($)" htmlFor="order-shipping" error={errors.shippingCents?.message}>
              <DollarInput
                id="order-shipping"
                {...register('shippingCents')}
                {...fieldAria(errors.shippingCents?.message, 'order-shipping-error')}
              />
            </Field>
          </div>
          <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm text-stone-800" aria-label="Estimated total">
            <dt>Subtotal</dt>
            <dd className="text-right tabular-nums">{formatCents(subtotal)}</dd>
            {d > 0 && (
              <>
                <dt>Discount</dt>
                <dd className="text-right tabular-nums">−{formatCents(d)}</dd>
              </>
            )}
            <dt>Shipping</dt>
            <dd className="text-right tabular-nums">{formatCents(s)}</dd>
            <dt>Tax (8%)</dt>
            <dd className="text-right tabular-nums">{formatCents(tax)}</dd>
            <dt className="font-semibold text-stone-900">Total</dt>
            <dd className="text-right font-semibold tabular-nums text-stone-900" data-testid="order-lines-total">
              {formatCents(subtotal - d + s + tax)}
            </dd>
          </dl>
        </>
      )}
    </fieldset>
  );
}
