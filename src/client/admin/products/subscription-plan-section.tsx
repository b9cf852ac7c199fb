import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type FormEvent } from 'react';
import { Controller, useForm, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import {
  DEFAULT_PLAN_TERMS,
  planFormValues,
  planTermsText,
  SUBSCRIPTION_SETTINGS_MESSAGES,
  SubscriptionPlanForm,
  type AdminSubscriptionPlan,
  type AdminSubscriptionPlans,
  type SubscriptionPlanFormFields,
} from '../../../shared/schemas/admin/subscription-plans.js';
import { discountedCents, SUBSCRIPTION_LIMITS, type SubscriptionPlanInput } from '../../../shared/subscriptions.js';
import { formatCents } from '../../../shared/money.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { useSubscriptionPlans } from '../api/get-subscription-plans.js';
import { useRemoveVariantSubscriptionPlan, useSaveSubscriptionPlan } from '../api/save-subscription-plan.js';
import { DataTable, Field, fieldAria, inputCls, Switch, type Column } from '../components/admin-ui.js';
import { messageAt } from '../components/settings-form.js';

type PlanBody = z.output<typeof SubscriptionPlanInput>;
type Variant = AdminSubscriptionPlans['variants'][number];
/** A variant's terms: its product's, its own, or none (its own row, switched off). */
type VariantMode = 'product' | 'own' | 'off';

const modeOf = (v: Variant): VariantMode => (v.plan === null ? 'product' : v.plan.enabled ? 'own' : 'off');
const variantName = (v: Variant) => v.label || 'Default';

/**
 * The plan's terms as the form holds them: the intervals as a list ("2, 4, 6, 8"), the discount,
 * and optionally another discount from a later delivery. Every message comes from the server's schema.
 */
function PlanTermsFields({
  idPrefix,
  register,
  control,
  errors,
  priceCents,
}: {
  idPrefix: string;
  register: UseFormRegister<SubscriptionPlanFormFields>;
  control: Control<SubscriptionPlanFormFields, unknown, PlanBody>;
  errors: FieldErrors<SubscriptionPlanFormFields>;
  /** The price a shopper pays once, to show what a delivery costs at the discount typed. */
  priceCents: number | null;
}) {
  const [laterOn, discountText] = useWatch({ control, name: ['laterOn', 'discountPercent'] });
  const id = (name: string) => `${idPrefix}-${name}`;
  const error = (name: keyof SubscriptionPlanFormFields) => messageAt(errors, name);
  const discount = Number(discountText);
  const perDelivery =
    priceCents !== null && discountText.trim() !== '' && Number.isInteger(discount) && discount >= 0 && discount <= 100
      ? `${formatCents(discountedCents(priceCents, discount))} a delivery instead of ${formatCents(priceCents)}.`
      : 'The discount is taken off every delivery’s price.';
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Delivery intervals (weeks)"
          required
          htmlFor={id('intervals')}
          error={error('intervals')}
          hint={`Whole weeks from ${SUBSCRIPTION_LIMITS.minWeeks} to ${SUBSCRIPTION_LIMITS.maxWeeks}, separated by commas; the shopper picks one.`}
        >
          <input
            id={id('intervals')}
            className={inputCls}
            inputMode="numeric"
            autoComplete="off"
            placeholder={DEFAULT_PLAN_TERMS.intervals.join(', ')}
            {...register('intervals')}
            {...fieldAria(error('intervals'), `${id('intervals')}-error`)}
          />
        </Field>
        <Field label="Discount (%)" required htmlFor={id('discount')} error={error('discountPercent')} hint={perDelivery}>
          <input
            id={id('discount')}
            className={inputCls}
            type="number"
            min="0"
            max="100"
            step="1"
            inputMode="numeric"
            {...register('discountPercent')}
            {...fieldAria(error('discountPercent'), `${id('discount')}-error`)}
          />
        </Field>
      </div>
      <label className="inline-flex items-center gap-2 text-sm font-medium text-stone-900">
        <input type="checkbox" className="h-4 w-4 accent-brand-600" {...register('laterOn')} />A different discount from a later delivery
      </label>
      {laterOn && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="From delivery"
            required
            htmlFor={id('later-from')}
            error={error('laterFromDelivery')}
            hint="The first order is delivery 1: 4 means from the fourth delivery on."
          >
            <input
              id={id('later-from')}
              className={inputCls}
              type="number"
              min="2"
              step="1"
              inputMode="numeric"
              {...register('laterFromDelivery')}
              {...fieldAria(error('laterFromDelivery'), `${id('later-from')}-error`)}
            />
          </Field>
          <Field label="Discount from then (%)" required htmlFor={id('later-discount')} error={error('laterDiscountPercent')}>
            <input
              id={id('later-discount')}
              className={inputCls}
              type="number"
              min="0"
              max="100"
              step="1"
              inputMode="numeric"
              {...register('laterDiscountPercent')}
              {...fieldAria(error('laterDiscountPercent'), `${id('later-discount')}-error`)}
            />
          </Field>
        </div>
      )}
    </div>
  );
}

/** The product's own plan: offered or not, and its terms; saved on its own (the product's form is above). */
function ProductPlanForm({
  productId,
  plan,
  priceCents,
}: {
  productId: string;
  plan: AdminSubscriptionPlan | null;
  priceCents: number | null;
}) {
  const save = useSaveSubscriptionPlan(productId);
  const idPrefix = useId();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<SubscriptionPlanFormFields, unknown, PlanBody>({
    resolver: zodResolver(SubscriptionPlanForm),
    defaultValues: planFormValues(plan),
  });
  const submit = (body: PlanBody) =>
    save.mutate(
      { target: { variantId: null }, body },
      {
        onSuccess: (saved) => {
          reset(planFormValues(saved.plan));
          toast({
            title: SUBSCRIPTION_SETTINGS_MESSAGES.planSaved,
            description: saved.plan?.enabled ? planTermsText(saved.plan) : 'Not offered',
          });
        },
        onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
      },
    );
  const enabled = useWatch({ control, name: 'enabled' });
  return (
    <form onSubmit={(e) => void handleSubmit(submit)(e)} noValidate aria-label="Subscribe and save terms">
      <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
        <div className="flex items-start gap-3">
          <Controller
            control={control}
            name="enabled"
            render={({ field }) => <Switch label="Offer subscribe and save" checked={field.value} onChange={field.onChange} />}
          />
          <div>
            <p className="text-sm font-medium text-stone-900">Offer subscribe and save</p>
            <p className="text-xs text-stone-600">
              {enabled
                ? 'Shoppers can choose a regular delivery at a discount; renewals are charged to the card they saved.'
                : 'Off: shoppers buy this product once. Existing subscriptions are not renewed with it.'}
            </p>
          </div>
        </div>
        <PlanTermsFields idPrefix={idPrefix} register={register} control={control} errors={errors} priceCents={priceCents} />
        <div className="flex flex-wrap items-center justify-end gap-3">
          {isDirty && <p className="mr-auto text-sm font-semibold text-stone-900">You have unsaved changes.</p>}
          <Button type="submit" variant="outline" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save subscription terms'}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

const MODES: { value: VariantMode; label: string }[] = [
  { value: 'product', label: 'Same as product' },
  { value: 'own', label: 'Own terms' },
  { value: 'off', label: 'Not offered' },
];

/** One variant's terms: its product's, its own, or none; the server's refusal (a switched-off variant offered) stays in view. */
function VariantPlanDialog({
  productId,
  productPlan,
  variant,
  onClose,
}: {
  productId: string;
  productPlan: AdminSubscriptionPlan | null;
  variant: Variant;
  onClose: () => void;
}) {
  const [mode, setMode] = useState<VariantMode>(modeOf(variant));
  const [serverError, setServerError] = useState<string | null>(null);
  const save = useSaveSubscriptionPlan(productId);
  const remove = useRemoveVariantSubscriptionPlan(productId);
  const busy = save.isPending || remove.isPending;
  const idPrefix = useId();
  const name = variantName(variant);
  // Own terms start from the variant's own, else the product's, and are always offered.
  const start = variant.plan?.enabled ? variant.plan : (productPlan ?? variant.plan);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<SubscriptionPlanFormFields, unknown, PlanBody>({
    resolver: zodResolver(SubscriptionPlanForm),
    defaultValues: { ...planFormValues(start), enabled: true },
  });
  const done = (saved: AdminSubscriptionPlans) => {
    const now = saved.variants.find((v) => v.id === variant.id);
    const terms = !now?.plan ? 'Same as product' : now.plan.enabled ? planTermsText(now.plan) : 'Not offered';
    toast({ title: SUBSCRIPTION_SETTINGS_MESSAGES.variantPlanSaved(name), description: terms });
    onClose();
  };
  const failed = (err: unknown) => setServerError(messageOf(err));
  const terms = (p: AdminSubscriptionPlan | null): PlanBody => ({
    enabled: false,
    intervals: p?.intervals.length ? p.intervals : [...DEFAULT_PLAN_TERMS.intervals],
    discountPercent: p?.discountPercent ?? DEFAULT_PLAN_TERMS.discountPercent,
    laterDiscountPercent: p?.laterDiscountPercent ?? null,
    laterFromDelivery: p?.laterFromDelivery ?? null,
  });
  const submitOwn = (body: PlanBody) =>
    save.mutate({ target: { variantId: variant.id }, body: { ...body, enabled: true } }, { onSuccess: done, onError: failed });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    if (mode === 'own') return void handleSubmit(submitOwn)(e);
    if (mode === 'product') {
      if (variant.plan === null) return onClose();
      return remove.mutate(variant.id, { onSuccess: done, onError: failed });
    }
    // Not offered: the variant's own row, switched off (its terms kept for a later "Own terms").
    save.mutate({ target: { variantId: variant.id }, body: terms(variant.plan ?? productPlan) }, { onSuccess: done, onError: failed });
  };
  const formId = `${idPrefix}-form`;
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Subscribe and save: ${name}`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate>
        <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
          {!variant.enabled && (
            <Alert title="This variant is switched off">
              <p>The shop does not sell it, so it cannot be offered by subscription until it is switched on again.</p>
            </Alert>
          )}
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-stone-900">Terms for {name}</legend>
            {MODES.map((m) => (
              <label key={m.value} className="flex items-start gap-2 text-sm text-stone-900">
                <input
                  type="radio"
                  name={`${idPrefix}-mode`}
                  value={m.value}
                  className="mt-0.5 h-4 w-4 accent-brand-600"
                  checked={mode === m.value}
                  onChange={() => {
                    setServerError(null);
                    setMode(m.value);
                  }}
                />
                <span>
                  <span className="font-medium">{m.label}</span>
                  {m.value === 'product' && (
                    <span className="block text-xs text-stone-600">
                      {productPlan?.enabled ? planTermsText(productPlan) : 'The product is not offered by subscription.'}
                    </span>
                  )}
                </span>
              </label>
            ))}
          </fieldset>
          {mode === 'own' && (
            <PlanTermsFields idPrefix={idPrefix} register={register} control={control} errors={errors} priceCents={null} />
          )}
          {serverError && (
            <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
              <p className="font-medium">Not saved</p>
              <p>{serverError}</p>
            </div>
          )}
        </fieldset>
      </form>
    </Dialog>
  );
}

/** A variant's row: which terms it follows, and what they are, said in words. */
function VariantTerms({ v, productPlan }: { v: Variant; productPlan: AdminSubscriptionPlan | null }) {
  const mode = modeOf(v);
  const label = MODES.find((m) => m.value === mode)!.label;
  const terms =
    mode === 'off'
      ? null
      : mode === 'own'
        ? planTermsText(v.plan!)
        : productPlan?.enabled
          ? planTermsText(productPlan)
          : 'Not offered: the product is not';
  return (
    <span className="flex flex-col">
      <span className="font-medium text-stone-900">{label}</span>
      {terms && <span className="text-xs text-stone-600">{terms}</span>}
    </span>
  );
}

/**
 * The product dialog's "Subscribe and save" (issue [4/8]): the product's plan, and for a product
 * with variants each variant's terms (the product's, its own, or not offered). Saved apart from the
 * product's own form; product pages show a change at once.
 */
export function SubscriptionPlanSection({ productId, priceCents }: { productId: string; priceCents: number | null }) {
  const plans = useSubscriptionPlans(productId);
  const [editing, setEditing] = useState<Variant | null>(null);
  const data = plans.data;
  const withVariants = (data?.variants.length ?? 0) > 1;
  const columns: Column<Variant>[] = [
    {
      header: 'Variant',
      primary: true,
      cell: (v) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-stone-900">{variantName(v)}</span>
          {!v.enabled && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">Off</span>}
        </span>
      ),
    },
    { header: 'Subscription', cell: (v) => <VariantTerms v={v} productPlan={data?.plan ?? null} /> },
  ];
  return (
    <section
      aria-labelledby="subscription-plan-title"
      className="mt-6 flex min-w-0 flex-col gap-4 rounded-lg border border-stone-200 p-3 sm:p-4"
    >
      <div>
        <h3 id="subscription-plan-title" className="font-semibold text-stone-900">
          Subscribe and save
        </h3>
        <p className="text-sm text-stone-700">
          A regular delivery at a discount: the shopper picks an interval, and each renewal is charged on the shop’s schedule.
        </p>
      </div>
      {plans.error && !data ? (
        <p role="alert" className="text-sm text-red-700">
          {messageOf(plans.error, 'Could not load the subscription terms')}{' '}
          <Button size="sm" variant="ghost" onClick={() => void plans.refetch()}>
            Retry
          </Button>
        </p>
      ) : !data ? (
        <p className="text-sm text-stone-700">Loading the subscription terms…</p>
      ) : (
        <>
          {/* Keyed by the plan's time: a save elsewhere (another tab) starts the form afresh when read again. */}
          <ProductPlanForm
            key={data.plan?.updatedAt ?? 'none'}
            productId={productId}
            plan={data.plan}
            priceCents={withVariants ? null : priceCents}
          />
          {withVariants && (
            <div className="flex min-w-0 flex-col gap-2 border-t border-stone-200 pt-4">
              <h4 className="text-sm font-semibold text-stone-900">Per variant</h4>
              <p className="text-xs text-stone-600">
                Each variant follows the product’s terms unless you give it its own or stop offering it.
              </p>
              <DataTable
                caption="Subscription terms per variant"
                rows={data.variants}
                rowKey={(v) => v.id}
                columns={columns}
                dense
                actionsLabel="Change"
                actions={(v) => (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setEditing(v)}
                    aria-label={`Change the subscription terms of ${variantName(v)}`}
                  >
                    Change
                  </Button>
                )}
              />
            </div>
          )}
        </>
      )}
      {editing && data && (
        <VariantPlanDialog productId={productId} productPlan={data.plan} variant={editing} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}
