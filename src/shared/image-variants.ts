/**
 * Smaller copies of an uploaded photo, so a phone does not download a 4,000-pixel original to draw
 * it 180 pixels wide. The server writes them beside the original at upload (catalog/image-variants.ts);
 * the client derives their addresses from the original's alone, with no extra data per image.
 *
 * Plain functions, no zod: the product card and page load them in their first bundle.
 */

/** Widths written for every uploaded photo: card (≈180–300 px), gallery (≈360–600 px), at 1× and 2×. */
export const IMAGE_VARIANT_WIDTHS = [320, 640, 960, 1280] as const;

/** Original uploads that get variants (SVG and GIF are served as they are). */
const UPLOADED_RASTER = /^(\/uploads\/[a-z]+\/[^/?#]+)\.(jpg|jpeg|png|webp)$/i;

/** A variant's file name ends like this (`<name>-w640.webp`), which an original's never does. */
export const VARIANT_SUFFIX = /-w\d+\.(webp|jpg|jpeg|png)$/i;

export type ImageVariants = {
  /** `srcset` of WebP variants. */
  webp: string;
  /** `srcset` in the original's own format, for a browser without WebP; null when the original is WebP. */
  fallback: string | null;
};

/** The variant of `original` (`/uploads/…/<name>.<ext>`) `width` pixels wide, in `format` (the original's own by default). */
export function imageVariantPath(original: string, width: number, format?: 'webp'): string {
  const dot = original.lastIndexOf('.');
  return `${original.slice(0, dot)}-w${width}.${format ?? original.slice(dot + 1)}`;
}

/** The `srcset` lists of an uploaded photo's variants, or null for anything else (seeded SVGs, external addresses). */
export function imageVariants(src: string): ImageVariants | null {
  const match = UPLOADED_RASTER.exec(src);
  if (!match || VARIANT_SUFFIX.test(src)) return null;
  const list = (format?: 'webp') => IMAGE_VARIANT_WIDTHS.map((w) => `${imageVariantPath(src, w, format)} ${w}w`).join(', ');
  return { webp: list('webp'), fallback: match[2]!.toLowerCase() === 'webp' ? null : list() };
}

/**
 * `sizes` for each place a product photo is shown: the width it is drawn at, matching the layout
 * (Container: max 1280 px with 16/24/32 px padding; product grids 2/3/4 columns; gallery half the page from md).
 */
export const IMAGE_SIZES = {
  /** Shop and home grids: 2 columns, 3 from md (768 px), 4 from lg (1024 px). */
  card: '(min-width: 1280px) 290px, (min-width: 1024px) 23vw, (min-width: 768px) 31vw, calc(50vw - 22px)',
  /** Related products: 2 columns, 4 from md. */
  related: '(min-width: 1280px) 290px, (min-width: 768px) 23vw, calc(50vw - 22px)',
  /** Product page gallery: full width, half the page from md. */
  gallery: '(min-width: 1280px) 584px, (min-width: 768px) calc(50vw - 48px), calc(100vw - 32px)',
  thumb: '64px',
} as const;
