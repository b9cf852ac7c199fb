import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type InputHTMLAttributes } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ProductEditForm, ProductForm } from '../../../shared/schemas/admin-forms.js';
import type { Category } from '../../../shared/schemas/catalog.js';
import { ProductInput } from '../../../shared/schemas/admin.js';
import { maxLengths } from '../../../shared/schemas/limits.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { ProductResponse, type AdminProduct } from '../api/admin-schemas.js';
import { centsToText, Field, fieldAria, inputCls } from '../components/admin-ui.js';
import { UnplacedErrors } from '../components/form-errors.js';
import { draftImages, ProductImagesField } from './product-images-field.js';
import { ProductStock, StockLevel } from './product-stock.js';

const numText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** What the dialog sends: a new product with its opening stock, an edited one without any stock figure. */
type ProductBody = z.output<typeof ProductForm> | z.output<typeof ProductEditForm>;
const DEFAULT_LOW_STOCK_THRESHOLD = 10;
const MAX = maxLengths(ProductInput);
/** The fields that show their own message; anything else the schema says appears above the footer. */
const PLACED = ['name', 'description', 'priceCents', 'inventory', 'lowStockThreshold', 'sku', 'brand', 'weightLbs', 'dimensions'];

export function ProductDialog({
  product,
  categories,
  onClose,
}: {
  product: AdminProduct | null;
  categories: Category[];
  onClose: () => void;
}) {
  const qc = useQueryClient();
  // The stock history's page: the read-only level above and the history below share its query.
  const [stockPage, setStockPage] = useState(1);
  const schema: z.ZodType<ProductBody, z.input<typeof ProductForm>> = product ? ProductEditForm : ProductForm;
  const {
    register,
    handleSubmit,
    control,
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
      sku: product?.sku ?? '',
      brand: product?.brand ?? '',
      weightLbs: numText(product?.weightLbs),
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
    save.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Product has been saved successfully.' });
        onClose();
      },
      onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
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
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Price ($)" required htmlFor="product-price" error={errors.priceCents?.message}>
              {input('priceCents', 'price', errors.priceCents?.message, {
                type: 'number',
                step: '0.01',
                min: '0',
                inputMode: 'decimal',
                required: true,
              })}
            </Field>
            {product ? (
              <StockLevel productId={product.id} page={stockPage} />
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
            <div className="flex items-end pb-2">
              <label className="inline-flex items-center gap-2 text-sm font-medium text-stone-900">
                <input type="checkbox" className="h-4 w-4 accent-brand-600" {...register('featured')} />
                Featured
              </label>
            </div>
            <Field label="SKU" htmlFor="product-sku" error={errors.sku?.message}>
              {input('sku', 'sku', errors.sku?.message, { maxLength: MAX.sku })}
            </Field>
            <Field label="Brand" htmlFor="product-brand" error={errors.brand?.message}>
              {input('brand', 'brand', errors.brand?.message, { maxLength: MAX.brand })}
            </Field>
            <Field label="Weight (lbs)" htmlFor="product-weight" error={errors.weightLbs?.message}>
              {input('weightLbs', 'weight', errors.weightLbs?.message, { type: 'number', step: '0.01', min: '0', inputMode: 'decimal' })}
            </Field>
          </div>
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
      {product && <ProductStock productId={product.id} page={stockPage} onPage={setStockPage} />}
    </Dialog>
  );
}
