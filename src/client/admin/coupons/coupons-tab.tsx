import '../../lib/zod-config.js';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatCents } from '../../../shared/money.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { AdminCouponPage, CouponDeleteResponse, CouponResponse, type AdminCoupon } from '../api/admin-schemas.js';
import { COUPON_STANDING_LABELS, couponStanding, type CouponStanding } from '../../../shared/coupon-status.js';
import { getProductVariantsQueryOptions } from '../api/get-product-variants.js';
import { formatDate } from '../../lib/format.js';
import { ConfirmDialog, DataTable, ListState, PageNav, Panel, RowActions, Switch } from '../components/admin-ui.js';
import { COUPONS_KEY, CouponDialog, toastCouponResult, useProductChoices } from './coupon-dialog.js';

const PAGE_SIZE = 20;

const STANDING_CLS: Record<Exclude<CouponStanding, 'live' | 'inactive'>, string> = {
  expired: 'bg-red-100 text-red-900',
  scheduled: 'bg-amber-100 text-amber-900',
  'used-up': 'bg-stone-200 text-stone-800',
};

function valueText(c: AdminCoupon): string {
  return c.discountType === 'percentage' ? `${c.discountValue}%` : formatCents(c.discountValue);
}

export default function CouponsTab() {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const { data, error, isPending, isFetching, refetch, isPlaceholderData, dataUpdatedAt } = useQuery({
    queryKey: [...COUPONS_KEY, { page }] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/coupons', AdminCouponPage, { page, pageSize: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const products = useProductChoices();
  // The free variants' labels: the variants of each free product a coupon on this page names one of.
  const giftProducts = [...new Set((data?.items ?? []).flatMap((c) => (c.freeProductId && c.freeVariantId ? [c.freeProductId] : [])))];
  const giftSets = useQueries({ queries: giftProducts.map((id) => getProductVariantsQueryOptions(id)) });
  const variantLabels = new Map(giftSets.flatMap((q) => (q.data?.variants ?? []).map((v) => [v.id, v.label] as const)));
  const productName = (id: string | null) => (id ? (products.data?.items.find((p) => p.id === id)?.name ?? id) : 'None');
  const giftName = (c: AdminCoupon) => {
    const label = c.freeVariantId ? variantLabels.get(c.freeVariantId) : undefined;
    return label ? `${productName(c.freeProductId)} — ${label}` : productName(c.freeProductId);
  };
  const [editing, setEditing] = useState<AdminCoupon | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<AdminCoupon | null>(null);
  const toggle = useMutation({
    onError: logUnexpected,
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      adminSend('PATCH', `/api/admin/coupons/${encodeURIComponent(id)}/active`, CouponResponse, { isActive }),
    onSettled: () => qc.invalidateQueries({ queryKey: COUPONS_KEY }),
  });
  const del = useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('DELETE', `/api/admin/coupons/${encodeURIComponent(id)}`, CouponDeleteResponse),
    onSettled: () => qc.invalidateQueries({ queryKey: COUPONS_KEY }),
  });

  return (
    <Panel title="Coupons" actions={<Button onClick={() => setEditing('new')}>Add Coupon</Button>}>
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading coupons"
        isEmpty={data?.items.length === 0}
        empty={<p>No coupons yet.</p>}
      >
        {data && (
          <>
            <DataTable
              caption="Coupons"
              rows={data.items}
              rowKey={(c) => c.id}
              busy={isPlaceholderData}
              columns={[
                {
                  header: 'Code',
                  primary: true,
                  className: 'whitespace-nowrap',
                  cell: (c) => {
                    // As of when the list was read: a coupon that ends while the tab is open shows it on the next refresh.
                    const standing = couponStanding(c, new Date(dataUpdatedAt));
                    return (
                      <>
                        <span className="font-mono font-semibold">{c.code}</span>
                        {standing !== 'live' && standing !== 'inactive' && (
                          <span
                            // On its own line: beside the code it widened the column until the row actions wrapped.
                            className={`mt-1 flex w-fit rounded-full px-2 py-0.5 text-xs font-semibold ${STANDING_CLS[standing]}`}
                          >
                            {COUPON_STANDING_LABELS[standing]}
                          </span>
                        )}
                        {c.stripeCouponId && (
                          <span
                            className="ml-2 inline-flex rounded-full bg-indigo-100 px-2 py-0.5 align-middle text-xs font-semibold text-indigo-900"
                            title={`Also in Stripe as ${c.stripeCouponId}`}
                          >
                            Stripe
                          </span>
                        )}
                      </>
                    );
                  },
                },
                { header: 'Type', className: 'capitalize', cell: (c) => c.discountType },
                { header: 'Value', numeric: true, cell: (c) => valueText(c) },
                { header: 'Min order', numeric: true, cell: (c) => (c.minOrderCents === null ? '—' : formatCents(c.minOrderCents)) },
                { header: 'Uses', numeric: true, className: 'whitespace-nowrap', cell: (c) => `${c.currentUses}/${c.maxUses ?? '∞'}` },
                {
                  header: 'Valid',
                  className: 'whitespace-nowrap',
                  cell: (c) => `${formatDate(c.validFrom)} – ${c.validUntil ? formatDate(c.validUntil) : 'no end'}`,
                },
                {
                  header: 'Active',
                  cell: (c) => {
                    const pending = toggle.isPending && toggle.variables.id === c.id;
                    return (
                      <Switch
                        label={`Active: ${c.code}`}
                        checked={pending ? toggle.variables.isActive : c.isActive}
                        disabled={pending}
                        onChange={(isActive) =>
                          toggle.mutate(
                            { id: c.id, isActive },
                            {
                              onSuccess: () => toast({ title: 'Coupon updated successfully' }),
                              onError: (err) => toast({ title: `Failed to update coupon: ${messageOf(err)}`, variant: 'destructive' }),
                            },
                          )
                        }
                      />
                    );
                  },
                },
                { header: 'Free product', className: 'md:min-w-32', cell: (c) => giftName(c) },
              ]}
              actions={(c) => <RowActions name={`coupon ${c.code}`} onEdit={() => setEditing(c)} onDelete={() => setToDelete(c)} />}
            />
            <PageNav page={page} totalPages={data.totalPages} onPage={setPage} busy={isFetching} />
          </>
        )}
      </ListState>
      {editing !== null && <CouponDialog coupon={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={toDelete !== null}
        message={`Are you sure you want to delete the coupon ${toDelete?.code ?? ''}?`}
        busy={del.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          del.mutate(toDelete.id, {
            onSuccess: (result) => toastCouponResult('delete', result.stripe),
            onError: (err) => toast({ title: `Failed to delete coupon: ${messageOf(err)}`, variant: 'destructive' }),
            onSettled: () => setToDelete(null),
          });
        }}
      />
    </Panel>
  );
}
