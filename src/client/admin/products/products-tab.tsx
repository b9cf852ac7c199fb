import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatCents } from '../../../shared/money.js';
import type { Product } from '../../../shared/schemas/catalog.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { AdminProductPage, OkResponse } from '../api/admin-schemas.js';
import { useAllCategories } from '../api/use-categories.js';
import { ConfirmDialog, DataTable, ListState, PageNav, Panel, RowActions } from '../components/admin-ui.js';
import { ProductDialog } from './product-dialog.js';

const PAGE_SIZE = 20;

export function useAdminProducts(page: number, pageSize = PAGE_SIZE) {
  return useQuery({
    queryKey: ['admin', 'products', { page, pageSize }] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/products', AdminProductPage, { page, pageSize }, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export default function ProductsTab() {
  const [page, setPage] = useState(1);
  const { data, error, isPending, isFetching, refetch, isPlaceholderData } = useAdminProducts(page);
  const categories = useAllCategories();
  const categoryName = (id: string | null) => (id ? (categories.data?.items.find((c) => c.id === id)?.name ?? id) : '—');
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<Product | null>(null);
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
          <Button onClick={() => setEditing('new')}>Add Product</Button>
        </>
      }
    >
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading products"
        isEmpty={data?.items.length === 0}
        empty={<p>No products yet. Add the first one.</p>}
      >
        {data && (
          <>
            <DataTable
              caption="Products, newest first"
              rows={data.items}
              rowKey={(p) => p.id}
              busy={isPlaceholderData}
              columns={[
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
                    </>
                  ),
                },
                { header: 'Price', numeric: true, cell: (p) => formatCents(p.priceCents) },
                { header: 'Inventory', numeric: true, cell: (p) => p.inventory },
                { header: 'Category', cell: (p) => categoryName(p.category) },
                { header: 'Featured', cell: (p) => (p.featured ? 'Yes' : 'No') },
              ]}
              actions={(p) => <RowActions name={p.name} onEdit={() => setEditing(p)} onDelete={() => setToDelete(p)} />}
            />
            <PageNav page={page} totalPages={data.totalPages} onPage={setPage} busy={isFetching} />
          </>
        )}
      </ListState>
      {editing !== null && (
        <ProductDialog
          product={editing === 'new' ? null : editing}
          categories={categories.data?.items ?? []}
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
