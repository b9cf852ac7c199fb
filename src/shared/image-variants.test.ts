import { describe, expect, it } from 'vitest';
import { IMAGE_VARIANT_WIDTHS, imageVariantPath, imageVariants } from './image-variants.js';

describe('image variants', () => {
  it('derives the variant addresses of an uploaded photo from its own', () => {
    expect(imageVariantPath('/uploads/products/abc-x1.jpg', 640, 'webp')).toBe('/uploads/products/abc-x1-w640.webp');
    expect(imageVariantPath('/uploads/products/abc-x1.jpg', 640)).toBe('/uploads/products/abc-x1-w640.jpg');
    expect(imageVariants('/uploads/products/abc-x1.jpg')).toEqual({
      webp: IMAGE_VARIANT_WIDTHS.map((w) => `/uploads/products/abc-x1-w${w}.webp ${w}w`).join(', '),
      fallback: IMAGE_VARIANT_WIDTHS.map((w) => `/uploads/products/abc-x1-w${w}.jpg ${w}w`).join(', '),
    });
    expect(imageVariants('/uploads/categories/a.png')?.fallback).toContain('/uploads/categories/a-w320.png 320w');
  });

  it('gives a WebP original WebP variants only', () => {
    expect(imageVariants('/uploads/products/a.webp')).toEqual({
      webp: IMAGE_VARIANT_WIDTHS.map((w) => `/uploads/products/a-w${w}.webp ${w}w`).join(', '),
      fallback: null,
    });
  });

  it('leaves seeded pictures, SVG, GIF, other addresses and variants themselves alone', () => {
    for (const src of [
      '/images/lavender-soap.svg',
      '/uploads/products/a.svg',
      '/uploads/products/a.gif',
      'https://cdn.example/a.jpg',
      '/uploads/products/a-w640.webp',
      '/uploads/../a.jpg',
    ]) {
      expect(imageVariants(src), src).toBeNull();
    }
  });
});
