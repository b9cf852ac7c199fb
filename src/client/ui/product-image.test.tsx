import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MISSING_IMAGES_KEY } from '../../shared/query-keys.js';
import { ProductImage } from './product-image.js';

function draw(missing: string[] | null, src: string) {
  const client = new QueryClient();
  if (missing) client.setQueryData(MISSING_IMAGES_KEY, missing);
  return renderToString(
    <QueryClientProvider client={client}>
      <ProductImage src={src} alt="Cloth" width={400} height={400} priority />
    </QueryClientProvider>,
  );
}

describe('ProductImage as the server draws it', () => {
  it('draws a picture the server says is missing as the placeholder, with no <img>', () => {
    const out = draw(['/images/products/gone.svg'], '/images/products/gone.svg');
    expect(out).toContain('Image not available');
    expect(out).toContain('aria-label="Cloth: Image not available"');
    expect(out).not.toContain('<img');
  });

  it('draws every other picture as an <img>', () => {
    for (const out of [draw(['/images/products/gone.svg'], '/images/products/here.svg'), draw(null, '/images/products/here.svg')]) {
      expect(out).toContain('<img');
      expect(out).toContain('src="/images/products/here.svg"');
      expect(out).not.toContain('Image not available');
    }
  });
});
