import '../../lib/zod-config.js';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { formatCents } from '../../../shared/money.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { AdminCouponPage, AdminProductPage, CouponDeleteResponse, CouponResponse, type AdminCoupon } from '../api/admin-schemas.js';
import { ADMIN_MESSAGES, CouponInput, type CouponStripeSync } from '../../../shared/schemas/admin.js';
import { maxLengths } from '../../../shared/schemas/limits.js';
import { COUPON_STANDING_LABELS, couponStanding, type CouponStanding } from '../../../shared/coupon-status.js';
import { usePaymentMode } from '../api/get-payment-mode.js';
import { getProductVariantsQueryOptions, useProductVariants } from '../api/get-product-variants.js';
import { CouponForm } from '../../../shared/schemas/admin-forms.js';
import { formatDate } from '../../lib/format.js';
import {
  centsToText,
  ConfirmDialog,
  DataTable,
  DollarInput,
  Field,
  fieldAria,
  FormFooter,
  inputCls,
  ListState,
  PageNav,
  Panel,
  RowActions,
  Switch,
} from '../components/admin-ui.js';
import { UnplacedErrors } from '../components/form-errors.js';

const PAGE_SIZE = 20;
const MAX = maxLengths(CouponInput);
/** Said where the Stripe box would be, and after a create that asked for Stripe without it. */
const SAVED_NOT_IN_STRIPE = 'The coupon was saved in the shop, but not created in Stripe: the shop runs without a Stripe key (local mode).';

const STANDING_CLS: Record<Exclude<CouponStanding, 'live' | 'inactive'>, string> = {
  expired: 'bg-red-100 text-red-900',
  scheduled: 'bg-amber-100 text-amber-900',
  'used-up': 'bg-stone-200 text-stone-800',
};
const KEY = ['admin', 'coupons'] as const;

/** ISO → the value a datetime-local input shows (local time). */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function valueText(c: AdminCoupon): string {
  return c.discountType === 'percentage' ? `${c.discountValue}%` : formatCents(c.discountValue);
}

/**
 * The toast after a create or delete went through locally: the spec's 'Feature Disabled' when
 * Stripe was asked for in local mode, a Stripe refusal (the local change still stands), or success.
 */
function toastCouponResult(verb: 'create' | 'delete', stripe: CouponStripeSync | undefined): void {
  if (stripe?.status === 'disabled') {
    toast({
      title: ADMIN_MESSAGES.stripeFeatureDisabled,
      description: `${stripe.message ?? ADMIN_MESSAGES.stripeCouponsDisabled}. ${
        verb === 'create' ? SAVED_NOT_IN_STRIPE : 'The coupon was deleted from the shop only.'
      }`,
    });
  } else if (stripe?.status === 'failed') {
    toast({
      title: `Failed to ${verb} coupon in Stripe: ${stripe.message ?? 'Stripe refused the request'}`,
      description: verb === 'create' ? 'The coupon was saved in the shop.' : 'The coupon was deleted from the shop.',
      variant: 'destructive',
    });
  } else {
    toast({ title: verb === 'create' ? 'Coupon created successfully' : 'Coupon deleted successfully' });
  }
}

function useProductChoices() {
  return useQuery({
    queryKey: ['admin', 'products', { page: 1, pageSize: 100 }] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/products', AdminProductPage, { page: 1, pageSize: 100 }, signal),
    staleTime: 60_000,
  });
}

function CouponDialog({ coupon, onClose }: { coupon: AdminCoupon | null; onClose: () => void }) {
  const qc = useQueryClient();
  const products = useProductChoices();
  // Without a Stripe key the box could only fail: it is off, and says why.
  const localMode = usePaymentMode().data?.provider === 'test';
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(CouponForm),
    defaultValues: {
      code: coupon?.code ?? '',
      description: coupon?.description ?? '',
      discountType: coupon?.discountType ?? 'percentage',
      discountValue: coupon ? (coupon.discountType === 'fixed' ? centsToText(coupon.discountValue) : String(coupon.discountValue)) : '',
      minOrderCents: centsToText(coupon?.minOrderCents),
      maxUses: coupon?.maxUses === null || coupon?.maxUses === undefined ? '' : String(coupon.maxUses),
      validFrom: toLocalInput(coupon ? coupon.validFrom : new Date().toISOString()),
      validUntil: toLocalInput(coupon?.validUntil),
      isActive: coupon?.isActive ?? true,
      freeProductId: coupon?.freeProductId ?? 'none',
      syncStripe: false,
    },
  });
  const discountType = useWatch({ control, name: 'discountType' });
  const freeProductId = useWatch({ control, name: 'freeProductId' });
  // The free product's variant ('' any: its first on sale with a unit to give), chosen when it has options.
  const [freeVariantId, setFreeVariantId] = useState(coupon?.freeVariantId ?? '');
  const freeVariants = useProductVariants(freeProductId, { enabled: freeProductId !== 'none' && freeProductId !== '' });
  const variantChoices =
    freeProductId !== 'none' && freeVariants.data && freeVariants.data.options.length > 0 ? freeVariants.data.variants : null;
  const verb = coupon ? 'update' : 'create';
  const save = useMutation({
    onError: logUnexpected,
    mutationFn: (body: unknown) =>
      coupon
        ? adminSend('PUT', `/api/admin/coupons/${encodeURIComponent(coupon.id)}`, CouponResponse, body)
        : adminSend('POST', '/api/admin/coupons', CouponResponse, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });

  const submit = ({ syncStripe, ...form }: z.output<typeof CouponForm>) => {
    // The variant goes with its product only (shared/schemas/admin-forms.ts does not carry it).
    const body = { ...form, freeVariantId: form.freeProductId ? freeVariantId || null : null };
    // Only a new coupon can be copied to Stripe; edits stay in the shop.
    save.mutate(coupon ? body : { ...body, syncStripe }, {
      onSuccess: (result) => {
        if (coupon) toast({ title: 'Coupon updated successfully' });
        else toastCouponResult('create', result.stripe);
        onClose();
      },
      onError: (err) => toast({ title: `Failed to ${verb} coupon: ${messageOf(err)}`, variant: 'destructive' }),
    });
  };

  type Key = keyof typeof errors;
  const aria = (k: Key, id: string = k) => fieldAria(errors[k]?.message, `coupon-${id}-error`);

  return (
    <Dialog open onClose={onClose} title={coupon ? 'Edit Coupon' : 'Add Coupon'}>
      <form onSubmit={(e) => void handleSubmit(submit)(e)} noValidate>
        <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Code" required htmlFor="coupon-code" error={errors.code?.message}>
              <input
                id="coupon-code"
                className={`${inputCls} uppercase`}
                maxLength={MAX.code}
                autoCapitalize="characters"
                {...register('code')}
                {...aria('code')}
              />
            </Field>
            <Field label="Discount type" htmlFor="coupon-discountType">
              <select id="coupon-discountType" className={inputCls} {...register('discountType')}>
                <option value="percentage">Percentage</option>
                <option value="fixed">Fixed amount</option>
              </select>
            </Field>
            <Field
              label={discountType === 'fixed' ? 'Discount value ($)' : 'Discount value (%)'}
              required
              htmlFor="coupon-discountValue"
              error={errors.discountValue?.message}
            >
              <input
                id="coupon-discountValue"
                type="number"
                min="0"
                step={discountType === 'fixed' ? '0.01' : '1'}
                max={discountType === 'percentage' ? '100' : undefined}
                inputMode="decimal"
                className={inputCls}
                {...register('discountValue')}
                {...aria('discountValue')}
              />
            </Field>
            <Field label="Minimum order ($)" htmlFor="coupon-minOrder" error={errors.minOrderCents?.message}>
              <DollarInput id="coupon-minOrder" {...register('minOrderCents')} {...aria('minOrderCents', 'minOrder')} />
            </Field>
            <Field label="Max uses" htmlFor="coupon-maxUses" error={errors.maxUses?.message}>
              <input
                id="coupon-maxUses"
                type="number"
                min="0"
                step="1"
                inputMode="numeric"
                className={inputCls}
                {...register('maxUses')}
                {...aria('maxUses')}
              />
            </Field>
            <Field label="Free product" htmlFor="coupon-freeProductId">
              <select
                id="coupon-freeProductId"
                className={inputCls}
                {...register('freeProductId', { onChange: () => setFreeVariantId('') })}
              >
                <option value="none">None</option>
                {freeProductId !== 'none' && !products.data?.items.some((p) => p.id === freeProductId) && (
                  <option value={freeProductId}>{freeProductId}</option>
                )}
                {products.data?.items.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
            {variantChoices && (
              <Field
                label="Free variant"
                htmlFor="coupon-freeVariantId"
                hint="Which version is given. Any: the first on sale with a unit to give."
              >
                <select
                  id="coupon-freeVariantId"
                  className={inputCls}
                  value={freeVariantId}
                  onChange={(e) => setFreeVariantId(e.target.value)}
                >
                  <option value="">Any variant</option>
                  {variantChoices.map((v) => (
                    <option key={v.id} value={v.id}>
                      {v.label} ({v.stock.available > 0 ? `${v.stock.available} in stock` : 'out of stock'}
                      {v.enabled ? '' : ', switched off'})
                    </option>
                  ))}
                </select>
              </Field>
            )}
            <Field label="Valid from" htmlFor="coupon-validFrom">
              <input id="coupon-validFrom" type="datetime-local" className={inputCls} {...register('validFrom')} />
            </Field>
            <Field label="Valid until" htmlFor="coupon-validUntil" error={errors.validUntil?.message}>
              <input
                id="coupon-validUntil"
                type="datetime-local"
                className={inputCls}
                {...register('validUntil')}
                {...aria('validUntil')}
              />
            </Field>
          </div>
          <Field label="Description" htmlFor="coupon-description" error={errors.description?.message}>
            <textarea
              id="coupon-description"
              rows={2}
              className={inputCls}
              maxLength={MAX.description}
              {...register('description')}
              {...aria('description')}
            />
          </Field>
          <label className="inline-flex items-center gap-2 text-sm font-medium text-stone-900">
            <input type="checkbox" className="h-4 w-4 accent-brand-600" {...register('isActive')} />
            Active
          </label>
          {!coupon && (
            <div className="flex flex-col gap-1">
              <label className="inline-flex items-center gap-2 text-sm font-medium text-stone-900">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-brand-600"
                  {...register('syncStripe')}
                  disabled={localMode}
                  aria-describedby="coupon-syncStripe-hint"
                />
                Also create this coupon in Stripe
              </label>
              <p id="coupon-syncStripe-hint" className="ml-6 text-sm text-stone-700">
                {localMode
                  ? `Not available: ${ADMIN_MESSAGES.stripeCouponsDisabled}. Coupons are saved in the shop only.`
                  : 'Adds a matching one-time coupon to your Stripe account. The coupon is saved in the shop either way.'}
              </p>
            </div>
          )}
          <UnplacedErrors
            id="coupon-form-errors"
            errors={errors}
            placed={['code', 'description', 'discountValue', 'minOrderCents', 'maxUses', 'validUntil']}
          />
          <FormFooter onCancel={onClose} saving={save.isPending} saveLabel="Save Coupon" />
        </fieldset>
      </form>
    </Dialog>
  );
}

export default function CouponsTab() {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const { data, error, isPending, isFetching, refetch, isPlaceholderData, dataUpdatedAt } = useQuery({
    queryKey: [...KEY, { page }] as const,
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
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
  const del = useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('DELETE', `/api/admin/coupons/${encodeURIComponent(id)}`, CouponDeleteResponse),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
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
