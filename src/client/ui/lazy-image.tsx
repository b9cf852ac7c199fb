import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react';
import type { ImageVariants } from '../../shared/image-variants.js';

/** The spec: lazy images start loading 50 px before they become visible. */
const LAZY_ROOT_MARGIN = '50px';
/** A transparent pixel until the image is near: an <img> without src would draw its alt text and a broken-image icon. */
const BLANK = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export type LazyImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'width' | 'height' | 'loading'> & {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Above-the-fold images load at once; `priority` also marks the LCP image with fetchPriority="high". */
  eager?: boolean;
  priority?: boolean;
  /** Smaller copies of `src` (shared/image-variants.ts), picked by the browser for `sizes`. */
  variants?: ImageVariants | null;
  /** The picture could not be loaded (also when that happened in the server's HTML, before the scripts ran). */
  onFail?: () => void;
};

/**
 * An <img> that waits for an IntersectionObserver (rootMargin 50px) instead of native
 * loading="lazy", whose browser-chosen margin is far larger than the spec's.
 */
export function LazyImage({
  src,
  alt,
  width,
  height,
  eager = false,
  priority = false,
  variants,
  sizes,
  onFail,
  className = '',
  ...rest
}: LazyImageProps) {
  const ref = useRef<HTMLImageElement>(null);
  const loadNow = eager || priority;
  const [visible, setVisible] = useState(loadNow);

  useEffect(() => {
    // An image that failed before hydration fired its error event before React listened for it.
    const el = ref.current;
    if (el?.complete && el.naturalWidth === 0 && el.getAttribute('src')) onFail?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at hydration; later failures come as error events
  }, []);

  useEffect(() => {
    if (visible) return;
    const el = ref.current;
    if (!el) return;
    if (typeof IntersectionObserver === 'undefined') {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- known only in the browser; the server's HTML must match the first render
      setVisible(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin: LAZY_ROOT_MARGIN },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [visible]);

  const img = (
    <img
      ref={ref}
      src={visible ? src : BLANK}
      srcSet={visible && variants?.fallback ? variants.fallback : undefined}
      sizes={variants ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      decoding="async"
      loading={loadNow ? 'eager' : undefined}
      fetchPriority={priority ? 'high' : undefined}
      className={`${visible ? '' : 'bg-stone-100'} ${className}`}
      onError={onFail}
      {...rest}
    />
  );
  if (!variants) return img;
  // `contents`: the <picture> adds no box, so the <img> is laid out as it is without one.
  return (
    <picture className="contents">
      {visible && <source type="image/webp" srcSet={variants.webp} sizes={sizes} />}
      {img}
    </picture>
  );
}
