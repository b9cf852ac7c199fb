import { useState } from 'react';
import { LazyImage, type LazyImageProps } from './lazy-image.js';

type ProductImageProps = Omit<LazyImageProps, 'src' | 'onError'> & { src: string | undefined };

/** A product photo; a missing or broken image becomes a neutral box saying so. */
export function ProductImage({ src, alt, width, height, className = '', ...rest }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) {
    return (
      <div
        role="img"
        aria-label={alt ? `${alt}: Image not available` : 'Image not available'}
        style={{ aspectRatio: `${width} / ${height}` }}
        className={`flex items-center justify-center bg-stone-100 text-sm text-stone-600 ${className}`}
      >
        <span aria-hidden="true">Image not available</span>
      </div>
    );
  }
  return (
    <LazyImage
      src={src}
      alt={alt}
      width={width}
      height={height}
      onError={() => setFailedSrc(src)}
      className={className}
      {...rest}
    />
  );
}
