import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from './entry-server.js';

/*
 * React's development server renderer writes a zero-length chunk for every empty attribute value
 * (alt="" on a decorative picture, value="" on an empty field). Where `ArrayBuffer.prototype.detached`
 * is missing (Node 20) it cannot check such a chunk and prints a "security issue" warning on the
 * first page served. Pages rendered here must print nothing.
 */
describe('server rendering', () => {
  afterEach(() => vi.restoreAllMocks());

  it('renders pages with empty attribute values without any console error', async () => {
    const errors = vi.spyOn(console, 'error');
    const html = await render('/contact', []);
    // The page really has an empty attribute value (the chunk React used to warn about).
    expect(html).toMatch(/value=""/);
    expect(await render('/faq', [])).toContain('<');
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([]);
  });
});

describe('ArrayBuffer.prototype.detached, as the renderer sees it', () => {
  it('tells a detached buffer from an empty one', () => {
    const moved = new ArrayBuffer(8);
    structuredClone(moved, { transfer: [moved] });
    expect((moved as ArrayBuffer & { detached: boolean }).detached).toBe(true);
    expect((new ArrayBuffer(0) as ArrayBuffer & { detached: boolean }).detached).toBe(false);
    expect((new ArrayBuffer(4) as ArrayBuffer & { detached: boolean }).detached).toBe(false);
  });
});
