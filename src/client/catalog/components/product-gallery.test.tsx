import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ProductGallery } from './product-gallery.js';

const draw = (product: { name: string; images: string[]; imageAlts?: string[] }) =>
  renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <ProductGallery product={product} />
    </QueryClientProvider>,
  );

describe('ProductGallery as the server draws it', () => {
  it('draws the first picture at full priority with its alt text, and a labelled thumbnail per picture', () => {
    const html = draw({ name: 'Cloth', images: ['/uploads/products/a.png', '/uploads/products/b.png'], imageAlts: ['Blue cloth', ''] });
    expect(html).toContain('src="/uploads/products/a.png"');
    expect(html).toContain('alt="Blue cloth"');
    expect(html).toContain('fetchPriority="high"');
    // The second picture is not loaded before it is chosen or its thumbnail is in view.
    expect(html).not.toContain('src="/uploads/products/b.png"');
    expect(html).toContain('aria-label="Show image 1 of 2: Blue cloth"');
    expect(html).toContain('aria-label="Show image 2 of 2: Cloth, image 2 of 2"');
    expect(html).toContain('aria-label="Next image"');
    expect(html).toContain('Image <!-- -->1<!-- --> of <!-- -->2');
  });

  it('has no thumbnails or arrows for a single picture', () => {
    const html = draw({ name: 'Mop', images: ['/uploads/products/m.png'] });
    expect(html).toContain('alt="Mop"');
    expect(html).not.toContain('Show image');
    expect(html).not.toContain('Next image');
  });
});
