import { useEffect, useId, useRef, useState } from 'react';
import { IMAGE_ALT_MAX, PRODUCT_IMAGES_MAX } from '../../../shared/product-images.js';
import { ChevronDownIcon, TrashIcon } from '../../ui/icons.js';
import { toast } from '../../ui/toast.js';
import { IMAGE_LIMIT_HINT, imageFileProblem, messageOf, uploadImage } from '../api/admin-api.js';
import { inputCls } from '../components/admin-ui.js';

/** One picture of the product as the form holds it: where it is, and what it shows. */
type ProductImageDraft = { url: string; alt: string };

export function draftImages(product: { images: readonly string[]; imageAlts?: readonly string[] | undefined } | null): ProductImageDraft[] {
  return (product?.images ?? []).map((url, i) => ({ url, alt: product?.imageAlts?.[i] ?? '' }));
}

/** `list` with the item at `from` moved to `to` (a new array). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/**
 * The product's pictures in the admin product dialog: add several (each uploaded at once through
 * /api/admin/uploads), write each one's alt text, put them in order with Move up / Move down
 * (the first is the main picture on the shop's pages) and remove any. Focus follows a moved
 * picture's button, and goes to the add button when one is removed.
 */
export function ProductImagesField({
  images,
  onChange,
  onBusy,
  disabled,
}: {
  images: ProductImageDraft[];
  onChange: (images: ProductImageDraft[]) => void;
  onBusy: (busy: boolean) => void;
  disabled?: boolean;
}) {
  const inputId = useId();
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  const room = PRODUCT_IMAGES_MAX - images.length;

  useEffect(() => {
    if (focusAfter === null) return;
    (focusAfter === 'add' ? fileInput.current : buttons.current.get(focusAfter))?.focus();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- focus moves after the list re-renders; the request is then spent
    setFocusAfter(null);
  }, [focusAfter, images]);

  const onFiles = async (files: File[]) => {
    if (files.length === 0) return;
    setError(null);
    if (files.length > room) {
      const message = `A product can have at most ${PRODUCT_IMAGES_MAX} images: ${room === 0 ? 'remove one first' : `choose ${room} or fewer`}.`;
      setError(message);
      toast({ title: 'Error', description: message, variant: 'destructive' });
      return;
    }
    // Every file is checked before any is sent, so a too-big one does not leave half the choice uploaded.
    const tooBig = files.map(imageFileProblem).find((m) => m !== null);
    if (tooBig) {
      setError(tooBig);
      toast({ title: 'Error', description: tooBig, variant: 'destructive' });
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setUploading(true);
    onBusy(true);
    const added: ProductImageDraft[] = [];
    try {
      // One at a time, in the order chosen: the first picked comes first after the existing ones.
      for (const file of files) added.push({ url: await uploadImage(file, 'products'), alt: '' });
    } catch (err) {
      const message = messageOf(err, 'Upload failed');
      setError(message);
      toast({ title: 'Error', description: message, variant: 'destructive' });
    } finally {
      if (added.length) onChange([...images, ...added]);
      setUploading(false);
      onBusy(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const move = (from: number, to: number, button: 'up' | 'down') => {
    const url = images[from]!.url;
    onChange(moveItem(images, from, to));
    // Keep focus on the same button of the moved picture; at an end that button is disabled, so the other one.
    const end = to === 0 || to === images.length - 1;
    setFocusAfter(`${url}|${end ? (button === 'up' ? 'down' : 'up') : button}`);
  };

  const iconButton =
    'inline-flex h-9 w-9 items-center justify-center rounded-md border border-stone-300 bg-white text-stone-700 hover:bg-stone-50 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-brand-600';

  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className="text-sm font-medium text-stone-900">Images</legend>
      <p className="-mt-1 text-xs text-stone-600">
        The first image is the main one on the shop&apos;s pages. Describe each image in its alt text for shoppers who cannot see it (blank:
        the product&apos;s name is used).
      </p>
      {images.length === 0 ? (
        <p className="rounded-md border border-dashed border-stone-300 px-3 py-4 text-center text-sm text-stone-600">No images yet</p>
      ) : (
        <ol className="flex flex-col gap-2" aria-label="Product images">
          {images.map((image, i) => {
            const altId = `${inputId}-alt-${i}`;
            return (
              <li
                key={image.url}
                className="flex flex-wrap items-center gap-3 rounded-md border border-stone-200 bg-white p-2 sm:flex-nowrap"
              >
                <img src={image.url} alt="" className="h-16 w-16 shrink-0 rounded-md border border-stone-200 object-cover" />
                <div className="flex min-w-0 flex-1 basis-48 flex-col gap-1">
                  <label htmlFor={altId} className="text-xs font-medium text-stone-800">
                    Alt text for image {i + 1}
                    {i === 0 ? ' (main)' : ''}
                  </label>
                  <input
                    id={altId}
                    className={inputCls}
                    value={image.alt}
                    maxLength={IMAGE_ALT_MAX}
                    placeholder="e.g. Blue cloth folded on a kitchen counter"
                    onChange={(e) => onChange(images.map((im, k) => (k === i ? { ...im, alt: e.target.value } : im)))}
                  />
                </div>
                <div className="flex shrink-0 gap-1">
                  <button
                    type="button"
                    ref={(el) => {
                      buttons.current.set(`${image.url}|up`, el);
                    }}
                    className={iconButton}
                    aria-label={`Move image ${i + 1} up`}
                    disabled={disabled || i === 0}
                    onClick={() => move(i, i - 1, 'up')}
                  >
                    <ChevronDownIcon size={18} className="rotate-180" />
                  </button>
                  <button
                    type="button"
                    ref={(el) => {
                      buttons.current.set(`${image.url}|down`, el);
                    }}
                    className={iconButton}
                    aria-label={`Move image ${i + 1} down`}
                    disabled={disabled || i === images.length - 1}
                    onClick={() => move(i, i + 1, 'down')}
                  >
                    <ChevronDownIcon size={18} />
                  </button>
                  <button
                    type="button"
                    className={`${iconButton} hover:border-red-300 hover:bg-red-50 hover:text-red-700`}
                    aria-label={`Remove image ${i + 1}`}
                    disabled={disabled}
                    onClick={() => {
                      onChange(images.filter((_, k) => k !== i));
                      setFocusAfter('add');
                    }}
                  >
                    <TrashIcon size={16} />
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={inputId} className="text-sm font-medium text-stone-900">
          Add images
        </label>
        <input
          ref={fileInput}
          id={inputId}
          type="file"
          multiple
          accept="image/png,image/jpeg,image/webp"
          disabled={disabled || uploading || room <= 0}
          onChange={(e) => void onFiles(Array.from(e.target.files ?? []))}
          className="min-w-0 text-sm text-stone-800 file:mr-3 file:rounded-md file:border file:border-brand-600 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-brand-50"
        />
        <p className="text-xs text-stone-600" aria-live="polite">
          {uploading ? 'Uploading images…' : `${IMAGE_LIMIT_HINT} each; at most ${PRODUCT_IMAGES_MAX} images (${images.length} now).`}
        </p>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    </fieldset>
  );
}
