/**
 * A product's pictures and what each shows, for people who cannot see it (decision 0017): the
 * owner writes an alt text per image; one left blank is described by the product's name.
 *
 * Plain functions, no zod: the product page loads them in its first bundle.
 */

/** Longest alt text an image may have (admin form and API). */
export const IMAGE_ALT_MAX = 200;
/** Most images one product may have (admin form and API). */
export const PRODUCT_IMAGES_MAX = 10;

type Pictured = { name: string; images: readonly string[]; imageAlts?: readonly string[] | undefined };

/**
 * The alt text of image `index`: the owner's, else the product's name (with "image N of M" when it
 * has several, so each picture is told apart).
 */
export function productImageAlt(p: Pictured, index: number): string {
  const written = p.imageAlts?.[index]?.trim();
  if (written) return written;
  return p.images.length > 1 ? `${p.name}, image ${index + 1} of ${p.images.length}` : p.name;
}

/** `alts` made exactly as long as `images` (missing ones '', extra ones dropped; anything not text is ''). */
export function alignImageAlts(images: readonly unknown[], alts: unknown): string[] {
  const list = Array.isArray(alts) ? alts : [];
  return images.map((_, i) => (typeof list[i] === 'string' ? (list[i] as string) : ''));
}
