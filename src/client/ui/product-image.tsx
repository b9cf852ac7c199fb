import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MISSING_IMAGES_KEY } from '../../shared/query-keys.js';
import { imageVariants } from '../../shared/image-variants.js';
import { LazyImage, type LazyImageProps } from './lazy-image.js';

type ProductImageProps = Omit<LazyImageProps, 'src' | 'onError' | 'onFail' | 'variants'> & {
  src: string | undefined;
  /** The width it is drawn at (shared/image-variants.ts IMAGE_SIZES): an uploaded photo then loads its variant of that size. */
  sizes?: string;
};

/**
 * A product photo; a missing or broken image becomes a neutral box saying so. One whose file the
 * server knows is missing (named in the page's first data) is that box from the first paint, in
 * the server's HTML too, so a page whose scripts have not run shows no broken-image icon.
 *
 * With `sizes`, an uploaded photo loads its copy of that size; should the copy be missing (a photo
 * uploaded before copies existed, whose copies the server is still making), the original is shown.
 */
export function ProductImage({ src, alt, width, height, sizes, className = '', ...rest }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const [noVariantsSrc, setNoVariantsSrc] = useState<string | null>(null);
  const knownMissing = useQueryClient().getQueryData<readonly string[]>(MISSING_IMAGES_KEY);
  if (!src || failedSrc === src || knownMissing?.includes(src)) {
    return (
      <div
        role="img"
        aria-label={alt ? `${alt}: Image not available` : 'Image not available'}
        style={{ aspectRatio: `${width} / ${height}` }}
        // A thumbnail (the cart's 64–96 px) says it in smaller type, so the words fit inside the box.
        className={`flex items-center justify-center bg-stone-100 p-1 text-center leading-tight text-stone-600 ${width < 160 ? 'text-xs' : 'text-sm'} ${className}`}
      >
        <span aria-hidden="true">Image not available</span>
      </div>
    );
  }
  const variants = sizes && noVariantsSrc !== src ? imageVariants(src) : null;
  return (
    <LazyImage
      src={src}
      alt={alt}
      width={width}
      height={height}
      variants={variants}
      sizes={sizes}
      onFail={() => (variants ? setNoVariantsSrc(src) : setFailedSrc(src))}
      className={className}
      {...rest}
    />
  );
}
