/**
 * The review form (issue [6/8]): stars, title, text, the name shown and up to three photos, for a
 * new review or an edit of one's own. Its own chunk, loaded after zod (it checks with the same
 * schema as the server, shared/schemas/reviews.ts): the product page's first load carries none of it.
 */
import '../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { ADMIN_MESSAGES, IMAGE_MAX_BYTES } from '../../shared/schemas/admin/messages.js';
import { ReviewInput } from '../../shared/schemas/reviews.js';
import { REVIEW_LIMITS, REVIEW_MESSAGES, type MyReview, type ReviewFormState, type ReviewPhoto } from '../../shared/reviews.js';
import { ApiError } from '../lib/api-client.js';
import { useBotGuard } from '../lib/use-bot-guard.js';
import { Button } from '../ui/button.js';
import { DecoyField, FieldError, FormError, fieldAria, inputClasses } from '../ui/form-controls.js';
import { ProductImage } from '../ui/product-image.js';
import { sendReview, type ReviewTarget } from './api/review-forms.js';
import type { SavedReview } from './api/review-schemas.js';
import { BoughtLine, VerifiedBadge } from './review-item.js';
import { photoId } from './photo-id.js';
import { formatCount } from '../../shared/money.js';

const FormFields = ReviewInput.pick({ rating: true, title: true, body: true, displayName: true });
type FormInput = z.input<typeof FormFields>;
type FormOutput = z.output<typeof FormFields>;
type FieldName = keyof FormOutput;

const STAR_WORDS = ['1 star', '2 stars', '3 stars', '4 stars', '5 stars'] as const;
const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const PHOTO_HINT = `Up to ${REVIEW_LIMITS.photosMax} photos: PNG, JPEG or WebP, up to ${IMAGE_MAX_BYTES / (1024 * 1024)} MB each.`;
/** The server's sentences about photos (the review's limit and the image pipeline's): shown under the photos. */
const PHOTO_PROBLEMS: readonly string[] = [
  REVIEW_MESSAGES.tooManyPhotos,
  ADMIN_MESSAGES.imageType,
  ADMIN_MESSAGES.imageSize,
  ADMIN_MESSAGES.imageUnreadable,
];
/** ADMIN_MESSAGES.imageDimensions(width, height) begins so. */
const PIXELS_PROBLEM = /^This image is \d+ × \d+ pixels/;

/** The field a server's 400 sentence is about, so it is shown beside that field; null: at the top of the form. */
export function fieldOfMessage(message: string): FieldName | 'photos' | null {
  const m = REVIEW_MESSAGES;
  if (message === m.ratingRequired) return 'rating';
  if (message === m.titleRequired || message === m.titleTooLong) return 'title';
  if (message === m.bodyTooShort || message === m.bodyTooLong) return 'body';
  if (message === m.displayNameRequired || message === m.displayNameTooLong) return 'displayName';
  if (PHOTO_PROBLEMS.includes(message) || PIXELS_PROBLEM.test(message)) return 'photos';
  return null;
}

type NewPhoto = { file: File; preview: string };

/** Where a write goes once the author has a review of the product: it edits that one. */
function targetOf(target: ReviewTarget, review: MyReview | null): ReviewTarget {
  if (!review) return target;
  return target.kind === 'link' ? { ...target, editing: true } : { ...target, reviewId: review.id };
}

/** Photos chosen but not sent yet: their previews are object URLs, freed when removed or when the form goes. */
function useNewPhotos() {
  const [added, setAdded] = useState<NewPhoto[]>([]);
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const live = previews.current;
    return () => live.forEach((url) => URL.revokeObjectURL(url));
  }, []);
  const add = (files: File[]) => {
    const fresh = files.map((file) => ({ file, preview: URL.createObjectURL(file) }));
    fresh.forEach((p) => previews.current.add(p.preview));
    setAdded((list) => [...list, ...fresh]);
  };
  const remove = (photo: NewPhoto) => {
    URL.revokeObjectURL(photo.preview);
    previews.current.delete(photo.preview);
    setAdded((list) => list.filter((p) => p !== photo));
  };
  return { added, add, remove };
}

export type ReviewFormProps = {
  state: ReviewFormState;
  target: ReviewTarget;
  onSaved: (saved: SavedReview) => void;
  onCancel?: () => void;
  /**
   * The form's state read again. A new review refused with 409 (it was already written: from another
   * tab, or a form reached again by Back) reads it, and the form then edits the saved review, keeping
   * what was typed here, instead of showing a refusal the shopper cannot act on.
   */
  reload?: () => Promise<ReviewFormState | undefined>;
};

export default function ReviewForm({ state, target, onSaved, onCancel, reload }: ReviewFormProps) {
  const id = useId();
  // Their review once known: the one the form opened on, or one found saved when this form's send was refused.
  const [review, setReview] = useState<MyReview | null>(state.review);
  const { attach: attachBotGuard, check: checkBotGuard } = useBotGuard('review');
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormFields),
    defaultValues: {
      rating: review ? String(review.rating) : undefined,
      title: review?.title ?? '',
      body: review?.body ?? '',
      displayName: review?.displayName ?? state.defaultDisplayName,
    },
  });
  const [kept, setKept] = useState<ReviewPhoto[]>(review?.photos ?? []);
  const { added, add: addPhotos, remove: removePhoto } = useNewPhotos();
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  // The sentence is at the form's top, the button pressed at its foot: brought into view.
  useEffect(() => {
    if (notice) noticeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [notice]);
  const fid = (k: string) => `${id}-${k}`;
  const room = REVIEW_LIMITS.photosMax - kept.length - added.length;
  const bodyLength = (useWatch({ control, name: 'body' }) ?? '').length;
  const chosen = Number(useWatch({ control, name: 'rating' })) || 0;

  const addFiles = (files: FileList | null) => {
    if (!files?.length) return;
    const problems: string[] = [];
    const fresh: File[] = [];
    for (const file of Array.from(files)) {
      if (fresh.length >= room) {
        problems.push(REVIEW_MESSAGES.tooManyPhotos);
        break;
      }
      if (!PHOTO_TYPES.includes(file.type)) problems.push(`"${file.name}": images must be PNG, JPEG or WebP.`);
      else if (file.size > IMAGE_MAX_BYTES) problems.push(`"${file.name}" is ${(file.size / (1024 * 1024)).toFixed(1)} MB: ${PHOTO_HINT}`);
      else fresh.push(file);
    }
    setPhotoError(problems.length ? problems.join(' ') : null);
    if (fresh.length) addPhotos(fresh);
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setFormError(null);
    void handleSubmit(async (values) => {
      const guard = checkBotGuard(form);
      try {
        const saved = await sendReview(targetOf(target, review), {
          ...values,
          elapsedMs: guard.elapsedMs,
          website: guard.website,
          keepPhotos: review ? kept.map(photoId) : null,
          photos: added.map((p) => p.file),
        });
        onSaved(saved);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409 && !review && reload) {
          const existing = (await reload().catch(() => undefined))?.review;
          if (existing) {
            // Nothing is lost: the saved review stands (its photos kept), and what was typed here stays to be saved over it.
            setReview(existing);
            setKept(existing.photos);
            setNotice(REVIEW_MESSAGES.alreadySavedElsewhere);
            return;
          }
        }
        const message = err instanceof ApiError ? err.message : 'Your review could not be sent. Check your connection and try again.';
        // A refusal names its field by its sentence (400; 413 for a photo too big): shown beside it.
        const field = err instanceof ApiError && err.status < 500 ? fieldOfMessage(message) : null;
        if (field === 'photos') setPhotoError(message);
        else if (field) setError(field, { message }, { shouldFocus: true });
        else setFormError(message);
      }
    })(e);
  };

  const busy = isSubmitting;
  return (
    <form
      ref={attachBotGuard}
      noValidate
      onSubmit={onSubmit}
      className="relative flex flex-col gap-5"
      aria-label={`Review of ${state.product.name}`}
    >
      <div className="flex items-center gap-3">
        {state.product.image && (
          <ProductImage
            src={state.product.image}
            alt=""
            width={56}
            height={56}
            sizes="56px"
            className="h-14 w-14 rounded-md object-cover"
          />
        )}
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-semibold text-stone-900">{state.product.name}</p>
          {(state.verified || state.variantLabel) && (
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
              {state.verified && <VerifiedBadge />}
              <BoughtLine variantLabel={state.variantLabel} />
            </p>
          )}
        </div>
      </div>
      {state.verified ? (
        <p className="-mt-2 text-sm text-stone-700">Your review will show “Verified buyer”: you bought this product from us.</p>
      ) : null}

      {notice && (
        <p
          ref={noticeRef}
          role="status"
          className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm font-medium text-brand-900"
          data-review-saved-elsewhere=""
        >
          {notice}
        </p>
      )}
      <FormError id={fid('error')} message={formError} />

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-stone-800">
          Your rating
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        </legend>
        <div className="flex items-center gap-3">
          <div className="flex">
            {STAR_WORDS.map((words, i) => (
              <label key={words} className="cursor-pointer p-0.5">
                <input
                  type="radio"
                  value={String(i + 1)}
                  className="peer sr-only"
                  {...register('rating')}
                  {...fieldAria(errors.rating?.message, fid('rating-error'))}
                />
                <span className="sr-only">{words}</span>
                <svg
                  width={32}
                  height={32}
                  viewBox="0 0 24 24"
                  aria-hidden="true"
                  focusable="false"
                  className={`rounded-sm peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-brand-600 ${
                    i < chosen ? 'text-amber-600' : 'text-stone-500'
                  }`}
                  fill={i < chosen ? 'currentColor' : 'none'}
                  stroke="currentColor"
                  strokeWidth={1.5}
                  strokeLinejoin="round"
                >
                  <path d="M12 2.5l2.94 5.96 6.56.95-4.75 4.63 1.12 6.54L12 17.5l-5.87 3.08 1.12-6.54L2.5 9.41l6.56-.95L12 2.5z" />
                </svg>
              </label>
            ))}
          </div>
          <span className="text-sm text-stone-700" aria-hidden="true">
            {chosen ? `${STAR_WORDS[chosen - 1]} out of 5` : 'Choose 1 to 5 stars'}
          </span>
        </div>
        {errors.rating?.message && <FieldError id={fid('rating-error')} message={errors.rating.message} />}
      </fieldset>

      <div className="flex flex-col gap-1.5">
        <label htmlFor={fid('title')} className="text-sm font-medium text-stone-800">
          Title
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        </label>
        <input
          id={fid('title')}
          type="text"
          maxLength={REVIEW_LIMITS.titleMax}
          className={inputClasses(Boolean(errors.title))}
          {...register('title')}
          {...fieldAria(errors.title?.message, fid('title-error'))}
        />
        {errors.title?.message && <FieldError id={fid('title-error')} message={errors.title.message} />}
      </div>

      <div className="flex flex-col gap-1.5">
        <label htmlFor={fid('body')} className="text-sm font-medium text-stone-800">
          Your review
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        </label>
        <textarea
          id={fid('body')}
          rows={6}
          maxLength={REVIEW_LIMITS.bodyMax}
          className={`${inputClasses(Boolean(errors.body)).replace('h-10 ', '')} py-2`}
          {...register('body')}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? `${fid('body-error')} ${fid('body-count')}` : fid('body-count')}
        />
        <div className="flex flex-wrap justify-between gap-x-4 gap-y-1">
          {errors.body?.message ? <FieldError id={fid('body-error')} message={errors.body.message} /> : <span />}
          <p id={fid('body-count')} className="text-sm text-stone-700">
            {formatCount(bodyLength)} of {formatCount(REVIEW_LIMITS.bodyMax)} characters
            {bodyLength < REVIEW_LIMITS.bodyMin ? ` (at least ${REVIEW_LIMITS.bodyMin})` : ''}
          </p>
        </div>
      </div>

      <div className="flex flex-col gap-1.5">
        <label htmlFor={fid('name')} className="text-sm font-medium text-stone-800">
          Name shown with your review
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        </label>
        <input
          id={fid('name')}
          type="text"
          autoComplete="off"
          maxLength={REVIEW_LIMITS.displayNameMax}
          className={inputClasses(Boolean(errors.displayName))}
          {...register('displayName')}
          aria-invalid={errors.displayName ? true : undefined}
          aria-describedby={errors.displayName ? `${fid('name-error')} ${fid('name-hint')}` : fid('name-hint')}
        />
        <p id={fid('name-hint')} className="text-sm text-stone-700">
          Your first name and initial by default; your e-mail address is never shown.
        </p>
        {errors.displayName?.message && <FieldError id={fid('name-error')} message={errors.displayName.message} />}
      </div>

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-stone-800">Photos (optional)</legend>
        {(kept.length > 0 || added.length > 0) && (
          <ul className="flex flex-wrap gap-3" aria-label="Photos with your review">
            {kept.map((photo, i) => (
              <li key={photo.url} className="flex flex-col items-center gap-1">
                <ProductImage
                  src={photo.url}
                  alt={`Upload ${i + 1}`}
                  width={80}
                  height={80}
                  sizes="80px"
                  className="h-20 w-20 rounded-md object-cover"
                />
                <Button variant="ghost" size="sm" onClick={() => setKept((list) => list.filter((p) => p !== photo))}>
                  Remove<span className="sr-only"> photo {i + 1}</span>
                </Button>
              </li>
            ))}
            {added.map((photo, i) => (
              <li key={photo.preview} className="flex flex-col items-center gap-1">
                {/* A preview of a file on this device (an object URL), not a product photo. */}
                <img
                  src={photo.preview}
                  alt={`Upload ${kept.length + i + 1}: ${photo.file.name}`}
                  width={80}
                  height={80}
                  // A file that is no picture shows its name, small, inside the box.
                  className="h-20 w-20 overflow-hidden break-all rounded-md bg-stone-100 object-cover text-xs text-stone-700"
                />
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => {
                    removePhoto(photo);
                    setPhotoError(null);
                  }}
                >
                  Remove<span className="sr-only"> photo {kept.length + i + 1}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <label
            htmlFor={fid('photos')}
            className={`inline-flex h-10 items-center rounded-md border px-4 text-sm font-medium ${
              room > 0
                ? 'cursor-pointer border-brand-600 bg-white text-brand-700 hover:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600 has-[:focus-visible]:ring-offset-2'
                : 'cursor-not-allowed border-stone-300 text-stone-600'
            }`}
          >
            Add photos
            <input
              id={fid('photos')}
              type="file"
              accept={PHOTO_TYPES.join(',')}
              multiple
              disabled={room <= 0}
              className="sr-only"
              aria-describedby={photoError ? `${fid('photos-error')} ${fid('photos-hint')}` : fid('photos-hint')}
              onChange={(e) => {
                addFiles(e.currentTarget.files);
                e.currentTarget.value = '';
              }}
            />
          </label>
          <p id={fid('photos-hint')} className="text-sm text-stone-700">
            {PHOTO_HINT}
          </p>
        </div>
        {photoError && (
          <p id={fid('photos-error')} role="alert" className="text-sm text-red-700">
            {photoError}
          </p>
        )}
      </fieldset>

      <DecoyField id={fid('website')} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="lg" disabled={busy} aria-busy={busy}>
          {busy ? 'Sending...' : review ? 'Save changes' : 'Submit review'}
        </Button>
      </div>
    </form>
  );
}
