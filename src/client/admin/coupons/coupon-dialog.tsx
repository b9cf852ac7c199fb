import '../../lib/zod-config.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { AdminProductPage, CouponResponse, type AdminCoupon } from '../api/admin-schemas.js';
import { ADMIN_MESSAGES } from '../../../shared/schemas/admin/messages.js';
import { CouponInput, type CouponStripeSync } from '../../../shared/schemas/admin/coupons.js';
import { maxLengths } from '../../../shared/schemas/limits.js';
import { usePaymentMode } from '../api/get-payment-mode.js';
import { useProductVariants } from '../api/get-product-variants.js';
import { CouponForm } from '../../../shared/schemas/admin/coupons.js';
import { centsToText, DollarInput, Field, fieldAria, FormFooter, inputCls } from '../components/admin-ui.js';
import { UnplacedErrors } from '../components/form-errors.js';

const MAX = maxLengths(CouponInput);
/** Said where the Stripe box would be, and after a create that asked for Stripe without it. */
const SAVED_NOT_IN_STRIPE = 'The coupon was saved in the shop, but not created in Stripe: the shop runs without a Stripe key (local mode).';
export const COUPONS_KEY = ['admin', 'coupons'] as const;

/** ISO → the value a datetime-local input shows (local time). */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The toast after a create or delete went through locally: the spec's 'Feature Disabled' when
 * Stripe was asked for in local mode, a Stripe refusal (the local change still stands), or success.
 */
export function toastCouponResult(verb: 'create' | 'delete', stripe: CouponStripeSync | undefined): void {
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

export function useProductChoices() {
  return useQuery({
    queryKey: ['admin', 'products', { page: 1, pageSize: 100 }] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/products', AdminProductPage, { page: 1, pageSize: 100 }, signal),
    staleTime: 60_000,
  });
}

export function CouponDialog({ coupon, onClose }: { coupon: AdminCoupon | null; onClose: () => void }) {
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
    onSuccess: () => qc.invalidateQueries({ queryKey: COUPONS_KEY }),
  });

  const submit = ({ syncStripe, ...form }: z.output<typeof CouponForm>) => {
    // The variant goes with its product only (shared/schemas/admin/coupons.ts: CouponForm does not carry it).
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
