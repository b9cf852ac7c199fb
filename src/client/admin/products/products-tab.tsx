import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { formatCents } from '../../../shared/money.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { AdminProductPage, OkResponse, type AdminProduct } from '../api/admin-schemas.js';
import { useAllCategories } from '../api/use-categories.js';
import { ConfirmDialog, DataTable, inputCls, ListState, PageNav, Panel, RowActions } from '../components/admin-ui.js';
import { selectColumn, SelectPageBox, useSelection } from '../components/bulk.js';
import { ProductBulkBar } from './product-bulk.js';
import { ProductDialog } from './product-dialog.js';
import { LowVariants, StockBadge, VariantsInventory } from './stock-badge.js';

const PAGE_SIZE = 20;

/** The list's stock filter and order, as the server's AdminProductListQuery names them. */
const STOCK_FILTERS = [
  ['all', 'All'],
  ['low', 'Low stock'],
  ['out', 'Sold out'],
] as const;
const SORTS = [
  ['newest', 'Newest'],
  ['name', 'Name (A–Z)'],
  ['price-asc', 'Price: low to high'],
  ['price-desc', 'Price: high to low'],
  ['stock-asc', 'Lowest stock first'],
] as const;
const SORT_CAPTION: Record<ProductSort, string> = {
  newest: 'newest first',
  name: 'by name',
  'price-asc': 'by price, lowest first',
  'price-desc': 'by price, highest first',
  'stock-asc': 'lowest stock first',
};
type StockFilter = (typeof STOCK_FILTERS)[number][0];
type ProductSort = (typeof SORTS)[number][0];

const oneOf = <T extends string>(options: readonly (readonly [T, string])[], value: string | null, fallback: T): T =>
  options.find(([v]) => v === value)?.[0] ?? fallback;

/** `category`: '' every category, `none` the products in no category. */
type ProductListFilter = { page: number; stock: StockFilter; sort: ProductSort; search?: string; category?: string };

export function useAdminProducts({ page, stock, sort, search = '', category = '' }: ProductListFilter, pageSize = PAGE_SIZE) {
  return useQuery({
    queryKey: ['admin', 'products', 'list', { page, pageSize, stock, sort, search, category }] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/products', AdminProductPage, { page, pageSize, stock, sort, search, category }, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** A labelled select of the list (stock, sort). */
function ListSelect<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-900">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(oneOf(options, e.target.value, value))}
        className="rounded-md border border-stone-300 bg-white px-2 py-2 text-sm"
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export default function ProductsTab() {
  // The search, filters and order live in the URL (`?tab=products&q=mop&category=mops&sort=name`): reload and Back keep them.
  const [params, setParams] = useSearchParams();
  const stock = oneOf(STOCK_FILTERS, params.get('stock'), 'all');
  const sort = oneOf(SORTS, params.get('sort'), 'newest');
  const search = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const [searchText, setSearchText] = useState(search);
  const [page, setPage] = useState(1);
  const selection = useSelection();
  const update = (key: 'stock' | 'sort' | 'q' | 'category', value: string, fallback: string) => {
    const next = new URLSearchParams(params);
    if (value === fallback) next.delete(key);
    else next.set(key, value);
    setParams(next);
    setPage(1);
  };
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    update('q', searchText.trim(), '');
  };
  const { data, error, isPending, isFetching, refetch, isPlaceholderData } = useAdminProducts({ page, stock, sort, search, category });
  const categories = useAllCategories();
  const categoryName = (id: string | null) => (id ? (categories.data?.items.find((c) => c.id === id)?.name ?? id) : '—');
  const qc = useQueryClient();
  const [editing, setEditing] = useState<AdminProduct | 'new' | null>(null);
  // A low variant chosen in the list: the dialog's Stock section opens on it.
  const [stockVariant, setStockVariant] = useState<string | undefined>(undefined);
  const edit = (p: AdminProduct | 'new', variantId?: string) => {
    setStockVariant(variantId);
    setEditing(p);
  };
  const [toDelete, setToDelete] = useState<AdminProduct | null>(null);
  const del = useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('DELETE', `/api/admin/products/${encodeURIComponent(id)}`, OkResponse),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]),
  });

  return (
    <Panel
      title="Products"
      actions={
        <>
          <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
            {isFetching ? 'Refreshing…' : 'Refresh'}
          </Button>
          <Button onClick={() => edit('new')}>Add Product</Button>
        </>
      }
    >
      <div className="mb-4 flex flex-col gap-3 lg:flex-row lg:flex-wrap lg:items-center">
        <form role="search" onSubmit={onSearch} className="flex min-w-0 flex-1 gap-2 lg:min-w-72">
          <label htmlFor="product-search" className="sr-only">
            Search products
          </label>
          <input
            id="product-search"
            type="search"
            value={searchText}
            maxLength={100}
            onChange={(e) => setSearchText(e.target.value)}
            placeholder="Search by name or SKU"
            className={inputCls}
          />
          <Button type="submit" variant="outline">
            Search
          </Button>
        </form>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <ListSelect
            id="product-category-filter"
            label="Category"
            value={category}
            options={[
              ['', 'All categories'],
              ...(categories.data?.items ?? []).map((c): [string, string] => [c.id, c.name]),
              ['none', 'No category'],
            ]}
            onChange={(v) => update('category', v, '')}
          />
          <ListSelect
            id="product-stock-filter"
            label="Stock"
            value={stock}
            options={STOCK_FILTERS}
            onChange={(v) => update('stock', v, 'all')}
          />
          <ListSelect id="product-sort" label="Sort" value={sort} options={SORTS} onChange={(v) => update('sort', v, 'newest')} />
        </div>
      </div>
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading products"
        isEmpty={data?.items.length === 0}
        empty={
          search || category ? (
            <p>No products match your search.</p>
          ) : stock === 'all' ? (
            <p>No products yet. Add the first one.</p>
          ) : (
            <p>
              {stock === 'low' ? 'No product or variant is at or below its low-stock threshold.' : 'No product or variant is sold out.'}
            </p>
          )
        }
      >
        {data && (
          <>
            <ProductBulkBar selection={selection} categories={categories.data?.items ?? []} />
            <SelectPageBox selection={selection} ids={data.items.map((p) => p.id)} busy={isPlaceholderData} />
            <DataTable
              caption={`Products${stock === 'low' ? ' with low stock' : stock === 'out' ? ', sold out' : ''}, ${SORT_CAPTION[sort]}`}
              rows={data.items}
              rowKey={(p) => p.id}
              busy={isPlaceholderData}
              columns={[
                selectColumn(
                  selection,
                  data.items,
                  (p) => p.id,
                  {
                    all: 'Select all products on this page',
                    row: (p) => `Select ${p.name}`,
                  },
                  isPlaceholderData,
                ),
                {
                  header: 'Image',
                  cell: (p) =>
                    p.images[0] ? (
                      <img src={p.images[0]} alt="" width={48} height={48} loading="lazy" className="h-12 w-12 rounded object-cover" />
                    ) : (
                      <span className="flex h-12 w-12 items-center justify-center rounded bg-stone-100 text-xs text-stone-600">None</span>
                    ),
                },
                {
                  header: 'Name',
                  primary: true,
                  className: 'md:min-w-40',
                  cell: (p) => (
                    <>
                      <span className="font-medium text-stone-900">{p.name}</span>
                      <span className="block break-all font-mono text-xs text-stone-600">{p.id}</span>
                      {p.variantCount > 1 && (
                        <span className="block text-xs text-stone-700">
                          {p.variantCount} variants · {p.inventory} on hand in all
                        </span>
                      )}
                    </>
                  ),
                },
                {
                  header: 'Price',
                  numeric: true,
                  className: 'whitespace-nowrap',
                  // Variants priced apart: from the lowest to the highest on sale.
                  cell: (p) =>
                    p.maxPriceCents ? `${formatCents(p.priceCents)}–${formatCents(p.maxPriceCents)}` : formatCents(p.priceCents),
                },
                {
                  header: 'Inventory',
                  numeric: true,
                  cell: (p) =>
                    p.variantCount > 1 ? (
                      <span className="inline-flex flex-col items-end gap-1">
                        <VariantsInventory product={p} />
                        {/* Under the low and sold-out filters: which variants, each opening its stock. */}
                        {stock !== 'all' && (
                          <LowVariants product={p.name} lowVariants={p.lowVariants} onChoose={(variantId) => edit(p, variantId)} />
                        )}
                      </span>
                    ) : (
                      <span className="inline-flex items-center justify-end gap-2">
                        <StockBadge onHand={p.inventory} threshold={p.lowStockThreshold} />
                        {p.inventory}
                      </span>
                    ),
                },
                { header: 'Category', cell: (p) => categoryName(p.category) },
                { header: 'Featured', cell: (p) => (p.featured ? 'Yes' : 'No') },
                { header: 'Status', cell: (p) => (p.status === 'draft' ? 'Draft (hidden)' : 'Active') },
              ]}
              actions={(p) => <RowActions name={p.name} onEdit={() => edit(p)} onDelete={() => setToDelete(p)} />}
            />
            <PageNav page={page} totalPages={data.totalPages} onPage={setPage} busy={isFetching} />
          </>
        )}
      </ListState>
      {editing !== null && (
        <ProductDialog
          product={editing === 'new' ? null : editing}
          categories={categories.data?.items ?? []}
          stockVariantId={stockVariant}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        message="Are you sure you want to delete this product?"
        busy={del.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          del.mutate(toDelete.id, {
            onSuccess: () => toast({ title: 'Product has been deleted successfully.' }),
            onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
            onSettled: () => setToDelete(null),
          });
        }}
      />
    </Panel>
  );
}
