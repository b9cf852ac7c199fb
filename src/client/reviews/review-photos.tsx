import { useState } from 'react';
import type { ReviewPhoto } from '../../shared/reviews.js';
import { Button } from '../ui/button.js';
import { Dialog } from '../ui/dialog.js';
import { ProductImage } from '../ui/product-image.js';

/** The width a review's photo is drawn at in its dialog (max-w-2xl less its padding), and as a thumbnail. */
const LARGE_SIZES = '(min-width: 720px) 624px, calc(100vw - 80px)';
const THUMB_SIZES = '80px';

/**
 * A review's photos as small thumbnails (their smallest copy: shared/image-variants.ts); each
 * opens larger in a dialog, with Previous and Next between them.
 */
export function ReviewPhotos({ photos, author }: { photos: readonly ReviewPhoto[]; author: string }) {
  const [open, setOpen] = useState<number | null>(null);
  if (photos.length === 0) return null;
  const shown = open === null ? null : photos[open];
  return (
    <>
      <ul className="flex flex-wrap gap-2" aria-label={`Photos from ${author}`}>
        {photos.map((photo, i) => (
          <li key={photo.url}>
            <button
              type="button"
              onClick={() => setOpen(i)}
              className="block overflow-hidden rounded-md border border-stone-200 hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <ProductImage
                src={photo.url}
                alt={`View photo ${i + 1} of ${photos.length} from ${author}`}
                width={80}
                height={80}
                sizes={THUMB_SIZES}
                className="h-20 w-20 object-cover"
              />
            </button>
          </li>
        ))}
      </ul>
      <Dialog
        open={shown !== null && shown !== undefined}
        onClose={() => setOpen(null)}
        title={open === null ? '' : `Photo ${open + 1} of ${photos.length} from ${author}`}
        footer={
          photos.length > 1 && open !== null ? (
            <>
              <Button variant="outline" disabled={open === 0} onClick={() => setOpen(open - 1)}>
                Previous photo
              </Button>
              <Button variant="outline" disabled={open === photos.length - 1} onClick={() => setOpen(open + 1)}>
                Next photo
              </Button>
            </>
          ) : undefined
        }
      >
        {shown && (
          <ProductImage
            key={shown.url}
            src={shown.url}
            alt={`Photo ${(open ?? 0) + 1} from ${author}`}
            width={shown.width}
            height={shown.height}
            sizes={LARGE_SIZES}
            eager
            className="mx-auto block h-auto max-h-[65vh] w-full rounded-md object-contain"
          />
        )}
      </Dialog>
    </>
  );
}
