import { useQueries } from '@tanstack/react-query';
import { formatCents } from '../../../shared/money.js';
import { lineTitle } from '../../../shared/variants.js';
import type { AdminProductVariants } from '../../../shared/schemas/admin/variants.js';
import { AdminProductPage, type AdminProduct } from '../api/admin-schemas.js';
import { getProductVariantsQueryOptions } from '../api/get-product-variants.js';
import { inputCls } from '../components/admin-ui.js';
import { usePickerSearch } from '../components/use-picker-search.js';

/** A version on sale, as the picker found it. */
export type PickedVariant = { variantId: string; name: string; sku: string | null; priceCents: number; available: number };

/** A product without options is one choice; a product with options lists each switched-on variant (its stock its own). */
function choicesOf(p: AdminProduct, variants: ReadonlyMap<string, AdminProductVariants>): PickedVariant[] | 'loading' {
  if (p.variantCount <= 1) {
    return [{ variantId: p.soleVariantId ?? `var_${p.id}`, name: p.name, sku: p.sku, priceCents: p.priceCents, available: p.inventory }];
  }
  const set = variants.get(p.id);
  if (!set) return 'loading';
  return set.variants
    .filter((v) => v.enabled)
    .map((v) => ({
      variantId: v.id,
      name: lineTitle(p.name, v.label),
      sku: v.sku,
      priceCents: v.priceCents,
      available: v.stock.available,
    }));
}

/**
 * "Add one-time item": a product found by name or SKU with the Products tab's own search
 * (GET /api/admin/products?search=), each version on sale a choice; drafts and versions out of
 * stock are shown but cannot be picked (the server refuses them too).
 */
export function ExtraVariantPicker({ id, onPick }: { id: string; onPick: (v: PickedVariant) => void }) {
  const { text, setText, searching, results, isFetching } = usePickerSearch('/api/admin/products', AdminProductPage, 'products');
  const withOptions = results.filter((p) => p.variantCount > 1);
  const answers = useQueries({ queries: withOptions.map((p) => getProductVariantsQueryOptions(p.id)) });
  const variants = new Map(withOptions.flatMap((p, i) => (answers[i]?.data ? [[p.id, answers[i].data] as const] : [])));
  const listId = `${id}-results`;
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-900">
        Find a product
      </label>
      <input
        id={id}
        type="search"
        className={inputCls}
        placeholder="Name or SKU"
        value={text}
        maxLength={100}
        autoComplete="off"
        aria-controls={searching ? listId : undefined}
        onChange={(e) => setText(e.target.value)}
      />
      {searching && (
        <ul
          id={listId}
          className="flex max-h-56 flex-col overflow-y-auto rounded-md border border-stone-200"
          aria-label="Matching products"
        >
          {results.length === 0 && <li className="p-2 text-sm text-stone-700">{isFetching ? 'Searching…' : 'No product matches.'}</li>}
          {results.flatMap((p) => {
            const c = choicesOf(p, variants);
            if (c === 'loading')
              return [
                <li key={p.id} className="border-t border-stone-100 p-2 text-sm text-stone-700 first:border-t-0">
                  {p.name}: loading its versions…
                </li>,
              ];
            return c.map((v) => {
              const draft = p.status === 'draft';
              const out = v.available <= 0;
              return (
                <li key={v.variantId} className="border-t border-stone-100 first:border-t-0">
                  <button
                    type="button"
                    disabled={draft || out}
                    className="flex w-full items-start justify-between gap-3 p-2 text-left hover:bg-stone-50 focus-visible:bg-stone-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60"
                    onClick={() => {
                      onPick(v);
                      setText('');
                    }}
                  >
                    <span className="min-w-0">
                      <span className="block break-words text-sm font-medium text-stone-900">{v.name}</span>
                      <span className="block text-xs text-stone-700">
                        {v.sku ? `SKU ${v.sku} · ` : ''}
                        {draft ? 'Draft: not on sale' : out ? 'Out of stock' : `${v.available} in stock`}
                      </span>
                    </span>
                    <span className="shrink-0 text-sm tabular-nums text-stone-900">{formatCents(v.priceCents)}</span>
                  </button>
                </li>
              );
            });
          })}
        </ul>
      )}
    </div>
  );
}
