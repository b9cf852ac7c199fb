import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react';

/** The spec: lazy images start loading 50 px before they become visible. */
const LAZY_ROOT_MARGIN = '50px';
/** A transparent pixel until the image is near: an <img> without src would draw its alt text and a broken-image icon. */
const BLANK = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export type LazyImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'width' | 'height' | 'loading'> & {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Above-the-fold images load at once; `priority` also marks the LCP image with fetchPriority="high". */
  eager?: boolean;
  priority?: boolean;
};

/**
 * An <img> that waits for an IntersectionObserver (rootMargin 50px) instead of native
 * loading="lazy", whose browser-chosen margin is far larger than the spec's.
 */
export function LazyImage({ src, alt, width, height, eager = false, priority = false, className = '', ...rest }: LazyImageProps) {
  const ref = useRef<HTMLImageElement>(null);
  const loadNow = eager || priority;
  const [visible, setVisible] = useState(loadNow);

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

  return (
    <img
      ref={ref}
      src={visible ? src : BLANK}
      alt={alt}
      width={width}
      height={height}
      decoding="async"
      loading={loadNow ? 'eager' : undefined}
      fetchPriority={priority ? 'high' : undefined}
      className={`${visible ? '' : 'bg-stone-100'} ${className}`}
      {...rest}
    />
  );
}
