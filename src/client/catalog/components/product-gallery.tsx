import { useRef, useState, type KeyboardEvent, type TouchEvent } from 'react';
import { IMAGE_SIZES } from '../../../shared/image-variants.js';
import { productImageAlt } from '../../../shared/product-images.js';
import { ChevronRightIcon } from '../../ui/icons.js';
import { ProductImage } from '../../ui/product-image.js';

type GalleryProduct = { name: string; images: readonly string[]; imageAlts?: readonly string[] | undefined };

/** A horizontal swipe longer than this (px), and longer than it is tall, turns the picture. */
const SWIPE_PX = 40;

/**
 * The product's pictures: the one shown, large, and a row of thumbnails to choose another. The
 * first picture is in the server's HTML at full priority (it is the page's largest paint); the
 * others load when chosen, the thumbnails when scrolled into view. Keyboard: the thumbnails are
 * one tab stop (arrow keys, Home and End move between them and show the picture); the previous
 * and next buttons, and the arrow keys anywhere in the gallery, turn it too. Touch: swipe the
 * large picture. Every picture is described by its alt text (productImageAlt).
 */
export function ProductGallery({ product, showImage = null }: { product: GalleryProduct; showImage?: string | null }) {
  const count = product.images.length;
  const [index, setIndex] = useState(() => Math.max(0, showImage ? product.images.indexOf(showImage) : 0));
  // The picture of the first screen (a linked version's, decision 0043): the page's largest paint, at full priority.
  const [firstIndex] = useState(index);
  // The chosen variant's picture comes to the front when the variant changes (the shopper may turn away from it after).
  const [shownFor, setShownFor] = useState(showImage);
  if (shownFor !== showImage) {
    setShownFor(showImage);
    // A variant without a picture of its own (or one no longer in the gallery) shows the product's main one,
    // never the picture of the variant chosen before it.
    setIndex(Math.max(0, showImage ? product.images.indexOf(showImage) : 0));
  }
  const thumbs = useRef<(HTMLButtonElement | null)[]>([]);
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const current = Math.min(index, Math.max(0, count - 1));

  const show = (to: number, focusThumb: boolean) => {
    if (count < 2) return;
    const next = ((to % count) + count) % count;
    setIndex(next);
    if (focusThumb) thumbs.current[next]?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const onThumb = thumbs.current.includes(e.target as HTMLButtonElement);
    const moves: Record<string, number> = { ArrowRight: current + 1, ArrowDown: current + 1, ArrowLeft: current - 1, ArrowUp: current - 1 };
    let to = moves[e.key];
    // Home and End (and up/down) only among the thumbnails, where they cannot mean anything else.
    if (!onThumb && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) return;
    if (onThumb && e.key === 'Home') to = 0;
    if (onThumb && e.key === 'End') to = count - 1;
    if (to === undefined || count < 2) return;
    e.preventDefault();
    show(to, onThumb);
  };

  const onTouchStart = (e: TouchEvent) => {
    const t = e.touches[0];
    touchStart.current = e.touches.length === 1 && t ? { x: t.clientX, y: t.clientY } : null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = touchStart.current;
    touchStart.current = null;
    const t = e.changedTouches[0];
    if (!start || !t) return;
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) show(current + (dx < 0 ? 1 : -1), false);
  };

  const src = product.images[current];
  const alt = productImageAlt(product, current);
  const navButton =
    'absolute top-1/2 z-10 flex h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full border border-stone-200 bg-white/90 text-stone-800 shadow-sm hover:bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

  return (
    // Arrow keys pressed on any of the gallery's buttons turn it; the buttons are what takes focus.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      role="group"
      aria-roledescription="gallery"
      aria-label={`Pictures of ${product.name}`}
      className="flex flex-col gap-3"
      onKeyDown={onKeyDown}
    >
      <div
        className="relative touch-pan-y"
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        onTouchCancel={() => (touchStart.current = null)}
      >
        <ProductImage
          // A new element per picture: each loads (or says it failed) on its own.
          key={src ?? 'none'}
          src={src}
          alt={alt}
          width={800}
          height={800}
          sizes={IMAGE_SIZES.gallery}
          priority={current === firstIndex}
          eager
          data-testid="gallery-main"
          className="aspect-square w-full rounded-2xl border border-stone-200 object-cover"
        />
        {count > 1 && (
          <>
            <button type="button" className={`${navButton} left-3`} aria-label="Previous image" onClick={() => show(current - 1, false)}>
              <ChevronRightIcon size={22} className="rotate-180" />
            </button>
            <button type="button" className={`${navButton} right-3`} aria-label="Next image" onClick={() => show(current + 1, false)}>
              <ChevronRightIcon size={22} />
            </button>
            <p
              className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-stone-900/75 px-3 py-1 text-xs font-medium text-white"
              aria-live="polite"
            >
              Image {current + 1} of {count}
            </p>
          </>
        )}
      </div>
      {count > 1 && (
        <div className="flex gap-2 overflow-x-auto p-1" aria-label="Choose a picture" role="group">
          {product.images.map((image, i) => (
            <button
              key={`${i}-${image}`}
              ref={(el) => {
                thumbs.current[i] = el;
              }}
              type="button"
              tabIndex={i === current ? 0 : -1}
              aria-label={`Show image ${i + 1} of ${count}: ${productImageAlt(product, i)}`}
              aria-current={i === current ? 'true' : undefined}
              onClick={() => show(i, false)}
              className={`shrink-0 overflow-hidden rounded-lg border-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                i === current ? 'border-brand-600' : 'border-transparent opacity-80 hover:opacity-100'
              }`}
            >
              <ProductImage src={image} alt="" width={64} height={64} sizes={IMAGE_SIZES.thumb} className="h-16 w-16 object-cover" />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
