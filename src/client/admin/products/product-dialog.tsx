import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type InputHTMLAttributes } from 'react';
import type { Category, Product } from '../../../shared/schemas/catalog.js';
import type { ProductInput } from '../../../shared/schemas/admin.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { ProductResponse } from '../api/admin-schemas.js';
import { centsToText, dollarsToCents, Field, inputCls } from '../components/admin-ui.js';
import { draftImages, ProductImagesField, type ProductImageDraft } from './product-images-field.js';

type Values = {
  name: string;
  description: string;
  price: string;
  inventory: string;
  category: string;
  featured: boolean;
  sku: string;
  brand: string;
  weight: string;
  length: string;
  width: string;
  height: string;
};
type Errors = Partial<Record<keyof Values, string>>;

const numText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
const optNumber = (t: string): number | null => (t.trim() === '' ? null : Number(t));

function validate(v: Values): Errors {
  const e: Errors = {};
  if (!v.name.trim()) e.name = 'Name is required';
  if (!v.description.trim()) e.description = 'Description is required';
  const price = dollarsToCents(v.price);
  if (v.price.trim() === '') e.price = 'Price is required';
  else if (price === null || price < 0) e.price = 'Price must be a number of at least 0';
  const inv = Number(v.inventory);
  if (v.inventory.trim() === '') e.inventory = 'Inventory is required';
  else if (!Number.isInteger(inv) || inv < 0) e.inventory = 'Inventory must be a whole number of at least 0';
  const w = optNumber(v.weight);
  if (w !== null && (!Number.isFinite(w) || w < 0)) e.weight = 'Weight must be a number of at least 0';
  for (const k of ['length', 'width', 'height'] as const) {
    const d = optNumber(v[k]);
    if (d !== null && (!Number.isFinite(d) || d <= 0)) e[k] = 'Must be a number above 0';
  }
  return e;
}

export function ProductDialog({ product, categories, onClose }: { product: Product | null; categories: Category[]; onClose: () => void }) {
  const qc = useQueryClient();
  const [values, setValues] = useState<Values>(() => ({
    name: product?.name ?? '',
    description: product?.description ?? '',
    price: product ? centsToText(product.priceCents) : '',
    inventory: product ? String(product.inventory) : '',
    category: product?.category ?? '',
    featured: product?.featured ?? false,
    sku: product?.sku ?? '',
    brand: product?.brand ?? '',
    weight: numText(product?.weightLbs),
    length: numText(product?.dimensions?.length),
    width: numText(product?.dimensions?.width),
    height: numText(product?.dimensions?.height),
  }));
  const [images, setImages] = useState<ProductImageDraft[]>(() => draftImages(product));
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((prev) => ({ ...prev, [k]: v }));

  const save = useMutation({
    onError: logUnexpected,
    mutationFn: (body: ProductInput) =>
      product
        ? adminSend('PUT', `/api/admin/products/${encodeURIComponent(product.id)}`, ProductResponse, body)
        : adminSend('POST', '/api/admin/products', ProductResponse, body),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const l = optNumber(values.length);
    const w = optNumber(values.width);
    const h = optNumber(values.height);
    const body: ProductInput = {
      name: values.name.trim(),
      description: values.description.trim(),
      priceCents: dollarsToCents(values.price) ?? 0,
      inventory: Number(values.inventory),
      category: values.category || null,
      featured: values.featured,
      sku: values.sku.trim() || null,
      brand: values.brand.trim() || null,
      weightLbs: optNumber(values.weight),
      // Dimensions are stored only when all three are given.
      dimensions: l !== null && w !== null && h !== null ? { length: l, width: w, height: h } : null,
      // The whole list, in the owner's order, each image with its alt text.
      images: images.map((im) => im.url),
      imageAlts: images.map((im) => im.alt.trim()),
    };
    save.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Product has been saved successfully.' });
        onClose();
      },
      onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
    });
  };

  const busy = save.isPending;
  const input = (k: Exclude<keyof Values, 'featured'>, extra: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <input
      id={`product-${k}`}
      className={inputCls}
      value={values[k]}
      onChange={(e) => set(k, e.target.value)}
      aria-invalid={Boolean(errors[k])}
      aria-describedby={errors[k] ? `product-${k}-error` : undefined}
      {...extra}
    />
  );

  return (
    <Dialog open onClose={onClose} title={product ? 'Edit Product' : 'Add Product'}>
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
          {product && (
            <Field label="ID" htmlFor="product-id">
              <input id="product-id" className={`${inputCls} font-mono`} value={product.id} readOnly />
            </Field>
          )}
          <Field label="Name" required htmlFor="product-name" error={errors.name}>
            {input('name', { required: true })}
          </Field>
          <Field label="Description" required htmlFor="product-description" error={errors.description}>
            <textarea
              id="product-description"
              rows={3}
              className={inputCls}
              value={values.description}
              onChange={(e) => set('description', e.target.value)}
              required
              aria-invalid={Boolean(errors.description)}
              aria-describedby={errors.description ? 'product-description-error' : undefined}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Price ($)" required htmlFor="product-price" error={errors.price}>
              {input('price', { type: 'number', step: '0.01', min: '0', inputMode: 'decimal', required: true })}
            </Field>
            <Field label="Inventory" required htmlFor="product-inventory" error={errors.inventory}>
              {input('inventory', { type: 'number', step: '1', min: '0', inputMode: 'numeric', required: true })}
            </Field>
            <Field label="Category" htmlFor="product-category">
              <select id="product-category" className={inputCls} value={values.category} onChange={(e) => set('category', e.target.value)}>
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
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-brand-600"
                  checked={values.featured}
                  onChange={(e) => set('featured', e.target.checked)}
                />
                Featured
              </label>
            </div>
            <Field label="SKU" htmlFor="product-sku">
              {input('sku')}
            </Field>
            <Field label="Brand" htmlFor="product-brand">
              {input('brand')}
            </Field>
            <Field label="Weight (lbs)" htmlFor="product-weight" error={errors.weight}>
              {input('weight', { type: 'number', step: '0.01', min: '0', inputMode: 'decimal' })}
            </Field>
          </div>
          <fieldset className="flex min-w-0 flex-col gap-2">
            <legend className="text-sm font-medium text-stone-900">Dimensions (inches, L × W × H)</legend>
            <div className="grid grid-cols-3 gap-2">
              {(['length', 'width', 'height'] as const).map((k) => (
                <Field key={k} label={k[0]?.toUpperCase() + k.slice(1)} htmlFor={`product-${k}`} error={errors[k]}>
                  {input(k, { type: 'number', step: '0.01', min: '0', inputMode: 'decimal' })}
                </Field>
              ))}
            </div>
            <p className="text-xs text-stone-600">Saved only when all three are given.</p>
          </fieldset>
          <ProductImagesField images={images} onChange={setImages} onBusy={setUploading} disabled={busy} />
          <p className="text-xs text-stone-600">
            <span className="text-red-700">*</span> Required
          </p>
          <div className="flex flex-wrap justify-end gap-2 border-t border-stone-200 pt-4">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={uploading}>
              {busy ? 'Saving…' : uploading ? 'Uploading…' : 'Save Product'}
            </Button>
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}
