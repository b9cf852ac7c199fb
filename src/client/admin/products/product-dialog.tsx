import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type InputHTMLAttributes } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ProductEditForm, ProductForm } from '../../../shared/schemas/admin/products.js';
import type { Category } from '../../../shared/schemas/catalog.js';
import { ProductInput, refusesSku } from '../../../shared/schemas/admin/products.js';
import { REORDER_LIMITS, REORDER_MESSAGES } from '../../../shared/reorder-reminders.js';
import { type AdminProductVariants, type AdminVariant } from '../../../shared/schemas/admin/variants.js';
import { formatCents } from '../../../shared/money.js';
import { maxLengths } from '../../../shared/schemas/limits.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { ProductResponse, type AdminProduct } from '../api/admin-schemas.js';
import { useProductVariants } from '../api/get-product-variants.js';
import { centsToText, DataTable, Field, fieldAria, inputCls, type Column } from '../components/admin-ui.js';
import { UnplacedErrors } from '../components/form-errors.js';
import { draftImages, ProductImagesField } from './product-images-field.js';
import { ProductStock, StockLevel } from './product-stock.js';
import { StockBadge } from './stock-badge.js';
import { SubscriptionPlanSection } from './subscription-plan-section.js';
import { VariantsDialog } from './variants-dialog.js';

const numText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** What the dialog sends: a new product with its opening stock, an edited one without any stock figure. */
type ProductBody = z.output<typeof ProductForm> | z.output<typeof ProductEditForm>;
const DEFAULT_LOW_STOCK_THRESHOLD = 10;
const MAX = maxLengths(ProductInput);
/** The fields that show their own message; anything else the schema says appears above the footer. */
const PLACED = [
  'name',
  'description',
  'priceCents',
  'inventory',
  'lowStockThreshold',
  'sku',
  'brand',
  'weightLbs',
  'reorderAfterDays',
  'dimensions',
];

/**
 * What the form of a product with options sends for the price and SKU it no longer holds: what the
 * server keeps (its copies of the variants': the lowest price on sale, the SKU of a sole variant),
 * so a save changes neither; the server refuses a changed one ("Set prices and SKUs per variant").
 */
function termsHeld(product: AdminProduct, set: AdminProductVariants | undefined): { priceCents: number; sku: string | null } {
  if (set?.variants.length === 1) return { priceCents: set.variants[0]!.priceCents, sku: set.variants[0]!.sku };
  const onSale = (set?.variants ?? []).filter((v) => v.enabled).map((v) => v.priceCents);
  return { priceCents: onSale.length > 0 ? Math.min(...onSale) : product.priceCents, sku: null };
}

/** "$14.99", or "$14.99 $29.98" with the compare-at price struck through, as the shop shows it. */
function PriceWithCompareAt({ v }: { v: Pick<AdminVariant, 'priceCents' | 'compareAtCents'> }) {
  return (
    <span className="whitespace-nowrap">
      {formatCents(v.priceCents)}
      {v.compareAtCents !== null && (
        <s className="ml-1 text-xs text-stone-600">
          <span className="sr-only">was </span>
          {formatCents(v.compareAtCents)}
        </s>
      )}
    </span>
  );
}

/**
 * A product with options, as its dialog shows it: the options, and each variant's SKU, price and
 * stock (read-only; Edit options and variants changes them, Stock picks its stock below).
 */
function VariantsSummary({
  set,
  error,
  onEdit,
  onStock,
}: {
  set: AdminProductVariants | undefined;
  error: unknown;
  onEdit: () => void;
  onStock: (variantId: string) => void;
}) {
  const columns: Column<AdminVariant>[] = [
    {
      header: 'Variant',
      primary: true,
      cell: (v) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-stone-900">{v.label || 'Default'}</span>
          {!v.enabled && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">Off</span>}
        </span>
      ),
    },
    { header: 'SKU', className: 'wrap-anywhere', cell: (v) => <span className="font-mono">{v.sku ?? '—'}</span> },
    { header: 'Price', numeric: true, cell: (v) => <PriceWithCompareAt v={v} /> },
    {
      header: 'On hand',
      numeric: true,
      cell: (v) => (
        <span className="inline-flex items-center justify-end gap-2">
          <StockBadge onHand={v.stock.onHand} threshold={v.stock.lowStockThreshold} />
          {v.stock.onHand}
        </span>
      ),
    },
  ];
  return (
    <section aria-labelledby="product-variants-title" className="flex min-w-0 flex-col gap-3 rounded-lg border border-stone-200 p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id="product-variants-title" className="font-semibold text-stone-900">
            Options and variants
          </h3>
          {set ? (
            <p className="text-sm text-stone-700">{set.options.map((o) => `${o.name}: ${o.values.join(', ')}`).join(' · ')}</p>
          ) : error ? (
            <p role="alert" className="text-sm text-red-700">
              {messageOf(error, 'Could not load the variants')}
            </p>
          ) : (
            <p className="text-sm text-stone-700">Loading the variants…</p>
          )}
          <p className="text-xs text-stone-600">Prices, SKUs and stock are set per variant.</p>
        </div>
        <Button variant="outline" onClick={onEdit} disabled={!set}>
          Edit options and variants
        </Button>
      </div>
      {set && (
        <DataTable
          caption="Variants"
          rows={set.variants}
          rowKey={(v) => v.id}
          columns={columns}
          dense
          actionsLabel="Stock"
          actions={(v) => (
            <Button size="sm" variant="ghost" onClick={() => onStock(v.id)} aria-label={`Stock of ${v.label || 'Default'}`}>
              Stock
            </Button>
          )}
        />
      )}
    </section>
  );
}

export function ProductDialog({
  product,
  categories,
  onClose,
  stockVariantId,
}: {
  product: AdminProduct | null;
  categories: Category[];
  onClose: () => void;
  /** A product with options: the variant whose stock the Stock section opens on (a low variant of the list). */
  stockVariantId?: string | undefined;
}) {
  const qc = useQueryClient();
  // The stock history's page: the read-only level above and the history below share its query.
  const [stockPage, setStockPage] = useState(1);
  const [stockVariant, setStockVariant] = useState(stockVariantId);
  // The options and every variant of an edited product: with options, prices, SKUs and stock are theirs.
  const variants = useProductVariants(product?.id ?? '', { enabled: product !== null });
  const set = variants.data;
  const withOptions = product !== null && (set ? set.options.length > 0 : product.variantCount > 1);
  const [editingVariants, setEditingVariants] = useState<'add' | 'edit' | null>(null);
  const chooseStockVariant = (variantId: string) => {
    setStockVariant(variantId);
    setStockPage(1);
    const select = document.getElementById('stock-variant');
    select?.scrollIntoView({ block: 'center' });
    select?.focus();
  };
  const schema: z.ZodType<ProductBody, z.input<typeof ProductForm>> = product ? ProductEditForm : ProductForm;
  const {
    register,
    handleSubmit,
    control,
    setValue,
    getValues,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: {
      name: product?.name ?? '',
      description: product?.description ?? '',
      priceCents: product ? centsToText(product.priceCents) : '',
      // An edited product has no inventory field: its stock changes by adjustment only.
      inventory: '',
      lowStockThreshold: String(product?.lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD),
      category: product?.category ?? '',
      featured: product?.featured ?? false,
      draft: product?.status === 'draft',
      sku: product?.sku ?? '',
      brand: product?.brand ?? '',
      weightLbs: numText(product?.weightLbs),
      reorderAfterDays: numText(product?.reorderAfterDays),
      dimensions: {
        length: numText(product?.dimensions?.length),
        width: numText(product?.dimensions?.width),
        height: numText(product?.dimensions?.height),
      },
      images: draftImages(product),
    },
  });
  const [uploading, setUploading] = useState(false);

  const save = useMutation({
    onError: logUnexpected,
    mutationFn: (body: ProductBody) =>
      product
        ? adminSend('PUT', `/api/admin/products/${encodeURIComponent(product.id)}`, ProductResponse, body)
        : adminSend('POST', '/api/admin/products', ProductResponse, body),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]),
  });

  const submit = (body: ProductBody) =>
    save.mutate(product && withOptions ? { ...body, ...termsHeld(product, set), lowStockThreshold: undefined } : body, {
      onSuccess: () => {
        toast({ title: 'Product has been saved successfully.' });
        onClose();
      },
      // A SKU another product's item holds is said at the SKU field; any other refusal in a toast.
      onError: (err) => {
        const message = messageOf(err);
        if (!withOptions && refusesSku(message, getValues('sku'))) setError('sku', { message }, { shouldFocus: true });
        else toast({ title: 'Error', description: message, variant: 'destructive' });
      },
    });

  const busy = save.isPending;
  type TextField =
    | 'name'
    | 'priceCents'
    | 'inventory'
    | 'lowStockThreshold'
    | 'sku'
    | 'brand'
    | 'weightLbs'
    | 'reorderAfterDays'
    | `dimensions.${'length' | 'width' | 'height'}`;
  const input = (k: TextField, id: string, error: string | undefined, extra: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <input id={`product-${id}`} className={inputCls} {...register(k)} {...fieldAria(error, `product-${id}-error`)} {...extra} />
  );

  return (
    <Dialog
      open
      onClose={onClose}
      title={product ? 'Edit Product' : 'Add Product'}
      // An edited product's stock history is a table of six columns: wider, so they fit side by side.
      className={product ? 'max-w-4xl!' : ''}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          {/* In the footer, outside the form (an edited product's stock has a form of its own below it). */}
          <Button type="submit" form="product-form" disabled={busy || uploading}>
            {busy ? 'Saving…' : uploading ? 'Uploading…' : 'Save Product'}
          </Button>
        </>
      }
    >
      <form id="product-form" onSubmit={(e) => void handleSubmit(submit)(e)} noValidate>
        <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
          {product && (
            <Field label="ID" htmlFor="product-id">
              <input id="product-id" className={`${inputCls} font-mono`} value={product.id} readOnly />
            </Field>
          )}
          <Field label="Name" required htmlFor="product-name" error={errors.name?.message}>
            {input('name', 'name', errors.name?.message, { required: true, maxLength: MAX.name })}
          </Field>
          <Field label="Description" required htmlFor="product-description" error={errors.description?.message}>
            <textarea
              id="product-description"
              rows={3}
              className={inputCls}
              maxLength={MAX.description}
              {...register('description')}
              required
              {...fieldAria(errors.description?.message, 'product-description-error')}
            />
          </Field>
          {withOptions && (
            <VariantsSummary set={set} error={variants.error} onEdit={() => setEditingVariants('edit')} onStock={chooseStockVariant} />
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            {!withOptions && (
              <Field label="Price ($)" required htmlFor="product-price" error={errors.priceCents?.message}>
                {input('priceCents', 'price', errors.priceCents?.message, {
                  type: 'number',
                  step: '0.01',
                  min: '0',
                  inputMode: 'decimal',
                  required: true,
                })}
              </Field>
            )}
            {withOptions ? null : product ? (
              <StockLevel target={{ productId: product.id }} page={stockPage} />
            ) : (
              <Field
                label="Inventory"
                required
                htmlFor="product-inventory"
                error={errors.inventory?.message}
                hint="The opening stock. Later changes go through Adjust stock."
              >
                {input('inventory', 'inventory', errors.inventory?.message, {
                  type: 'number',
                  step: '1',
                  min: '0',
                  inputMode: 'numeric',
                  required: true,
                })}
              </Field>
            )}
            {!withOptions && (
              <Field
                label="Low-stock threshold"
                htmlFor="product-threshold"
                error={errors.lowStockThreshold?.message}
                hint="At or below it the shop says “Only N left” and the product is flagged Low."
              >
                {input('lowStockThreshold', 'threshold', errors.lowStockThreshold?.message, {
                  type: 'number',
                  step: '1',
                  min: '0',
                  inputMode: 'numeric',
                })}
              </Field>
            )}
            <Field label="Category" htmlFor="product-category">
              <select id="product-category" className={inputCls} {...register('category')}>
                <option value="">No category</option>
                {categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
            {/* Level with the input beside it (under its label), not with the foot of its cell: a message under the SKU makes the row taller. */}
            <div className="flex items-start sm:pt-8">
              <label className="inline-flex items-center gap-2 text-sm font-medium text-stone-900">
                <input type="checkbox" className="h-4 w-4 accent-brand-600" {...register('featured')} />
                Featured
              </label>
              <label className="ml-4 inline-flex items-center gap-2 text-sm font-medium text-stone-900">
                <input type="checkbox" className="h-4 w-4 accent-brand-600" {...register('draft')} />
                Draft (hidden from the shop)
              </label>
            </div>
            {!withOptions && (
              <Field label="SKU" htmlFor="product-sku" error={errors.sku?.message}>
                {input('sku', 'sku', errors.sku?.message, { maxLength: MAX.sku })}
              </Field>
            )}
            <Field label="Brand" htmlFor="product-brand" error={errors.brand?.message}>
              {input('brand', 'brand', errors.brand?.message, { maxLength: MAX.brand })}
            </Field>
            <Field
              label="Weight (lbs)"
              htmlFor="product-weight"
              error={errors.weightLbs?.message}
              {...(withOptions ? { hint: 'For variants without a weight of their own.' } : {})}
            >
              {input('weightLbs', 'weight', errors.weightLbs?.message, { type: 'number', step: '0.01', min: '0', inputMode: 'decimal' })}
            </Field>
            <Field
              label="Reminder to reorder after (days)"
              htmlFor="product-reorder-days"
              error={errors.reorderAfterDays?.message}
              hint={REORDER_MESSAGES.hint}
            >
              {input('reorderAfterDays', 'reorder-days', errors.reorderAfterDays?.message, {
                type: 'number',
                step: '1',
                min: String(REORDER_LIMITS.daysMin),
                max: String(REORDER_LIMITS.daysMax),
                inputMode: 'numeric',
                placeholder: 'None',
              })}
            </Field>
          </div>
          {product && !withOptions && (
            <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 rounded-md border border-dashed border-stone-300 px-3 py-2">
              <p className="min-w-0 flex-1 basis-56 text-sm text-stone-700">
                Sold in one version. Options (size, colour…) make variants, each with its own price, SKU and stock.
              </p>
              <Button variant="outline" size="sm" onClick={() => setEditingVariants('add')} disabled={!set}>
                Add options
              </Button>
            </div>
          )}
          <fieldset className="flex min-w-0 flex-col gap-2">
            <legend className="text-sm font-medium text-stone-900">Dimensions (inches, L × W × H)</legend>
            <div className="grid grid-cols-3 gap-2">
              {(['length', 'width', 'height'] as const).map((k) => (
                <Field key={k} label={k[0]?.toUpperCase() + k.slice(1)} htmlFor={`product-${k}`} error={errors.dimensions?.[k]?.message}>
                  {input(`dimensions.${k}`, k, errors.dimensions?.[k]?.message, {
                    type: 'number',
                    step: '0.01',
                    min: '0',
                    inputMode: 'decimal',
                  })}
                </Field>
              ))}
            </div>
            <p className="text-xs text-stone-600">Saved only when all three are given.</p>
          </fieldset>
          <Controller
            control={control}
            name="images"
            render={({ field }) => (
              <ProductImagesField images={field.value} onChange={field.onChange} onBusy={setUploading} disabled={busy} />
            )}
          />
          <UnplacedErrors id="product-form-errors" errors={errors} placed={PLACED} />
          <p className="text-xs text-stone-600">
            <span className="text-red-700">*</span> Required
          </p>
        </fieldset>
      </form>
      {/* Outside the product's form, with a Save of its own (as the stock below). */}
      {product ? (
        <SubscriptionPlanSection productId={product.id} priceCents={withOptions ? null : product.priceCents} />
      ) : (
        <p className="mt-4 text-xs text-stone-600">
          Subscribe and save can be offered once the product is saved: open it again from the list.
        </p>
      )}
      {product && (
        <ProductStock
          productId={product.id}
          page={stockPage}
          onPage={setStockPage}
          variants={withOptions ? set?.variants : undefined}
          variantId={stockVariant}
          onVariant={setStockVariant}
        />
      )}
      {/* Outside the product's form: the variants have a form (and a Save) of their own. */}
      {product && set && editingVariants && (
        <VariantsDialog
          product={product}
          set={set}
          startWithOption={editingVariants === 'add'}
          onSaved={(saved) => {
            // Back to one version (its options removed): the form's price, SKU and threshold become that variant's,
            // or a Save Product would put back the ones the dialog opened with.
            const sole = saved.options.length === 0 && saved.variants.length === 1 ? saved.variants[0] : undefined;
            if (!sole) return;
            setValue('priceCents', centsToText(sole.priceCents));
            setValue('sku', sole.sku ?? '');
            setValue('lowStockThreshold', String(sole.stock.lowStockThreshold));
          }}
          onClose={() => setEditingVariants(null)}
        />
      )}
    </Dialog>
  );
}
