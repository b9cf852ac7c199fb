import { AdminProductPage } from '../api/admin-schemas.js';
import { Button } from '../../ui/button.js';
import { inputCls } from '../components/admin-ui.js';
import { usePickerSearch } from '../components/use-picker-search.js';

/**
 * The queue's product filter: a product found by name or SKU with the Products tab's own search
 * (GET /api/admin/products?search=), drafts included (a review stays when its product is taken off
 * sale); once one is picked it shows as the filter, with Clear.
 */
export function ProductFilter({
  id,
  picked,
  onPick,
  onClear,
}: {
  id: string;
  /** The filter's product, when one is set; its name may be unknown (an address typed by hand). */
  picked: { id: string; name: string } | null;
  onPick: (p: { id: string; name: string }) => void;
  onClear: () => void;
}) {
  const { text, setText, searching, results, isFetching } = usePickerSearch('/api/admin/products', AdminProductPage, 'products');
  const listId = `${id}-results`;
  if (picked) {
    return (
      <div className="flex min-w-0 flex-col items-start gap-1">
        <span className="text-sm font-medium text-stone-900">Product</span>
        <span
          className="inline-flex h-10 min-w-0 max-w-full items-center gap-1 rounded-full border border-brand-600 bg-brand-50 py-1 pr-1 pl-3 text-sm text-brand-900"
          data-testid="review-product-filter"
        >
          <span className="min-w-0 truncate">{picked.name}</span>
          <Button
            size="sm"
            variant="ghost"
            className="h-7! rounded-full! px-2!"
            onClick={onClear}
            aria-label={`Clear the product filter (${picked.name})`}
          >
            Clear
          </Button>
        </span>
      </div>
    );
  }
  return (
    <div className="relative flex min-w-0 flex-col gap-1 sm:w-72">
      <label htmlFor={id} className="text-sm font-medium text-stone-900">
        Product
      </label>
      <input
        id={id}
        type="search"
        className={inputCls}
        placeholder="Search a product by name or SKU"
        value={text}
        maxLength={100}
        autoComplete="off"
        aria-controls={searching ? listId : undefined}
        onChange={(e) => setText(e.target.value)}
      />
      {searching && (
        <ul
          id={listId}
          className="z-10 flex max-h-56 flex-col overflow-y-auto rounded-md border border-stone-200 bg-white shadow-md sm:absolute sm:top-full sm:right-0 sm:left-0 sm:mt-1"
          aria-label="Matching products"
        >
          {results.length === 0 && <li className="p-2 text-sm text-stone-700">{isFetching ? 'Searching…' : 'No product matches.'}</li>}
          {results.map((p) => (
            <li key={p.id} className="border-t border-stone-100 first:border-t-0">
              <button
                type="button"
                className="flex w-full flex-col items-start p-2 text-left hover:bg-stone-50 focus-visible:bg-stone-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
                onClick={() => {
                  onPick({ id: p.id, name: p.name });
                  setText('');
                }}
              >
                <span className="break-words text-sm font-medium text-stone-900">{p.name}</span>
                <span className="text-xs text-stone-700">
                  {p.sku ? `SKU ${p.sku}` : p.id}
                  {p.status === 'draft' ? ' · Draft' : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
