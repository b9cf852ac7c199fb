import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { CATEGORY_MESSAGES } from '../../shared/schemas/admin/categories.js';
import { png } from '../test/images.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const PNG = png(8, 8);
function multipart(name: string, content: Buffer, filename = 'x.png') {
  const boundary = '----shoptest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: 'http://shop.test',
    },
  };
}

describe('admin catalogue', () => {
  it('creates products with prod- ids, keeps images on edit, stores dimensions only when all three are given', async () => {
    const res = await admin.post('/api/admin/products', {
      name: 'New Mop Head',
      description: 'Fresh',
      priceCents: 1299,
      inventory: 7,
      category: 'mops',
      images: ['/images/placeholder.svg'],
      dimensions: { length: 10, width: 4 },
    });
    expect(res.statusCode).toBe(201);
    const p = res.json().product;
    expect(p.id).toMatch(/^prod-\d+-[a-z0-9]{6}$/);
    expect(p.dimensions).toBeNull();
    const upd = await admin.request('PUT', `/api/admin/products/${p.id}`, {
      name: 'New Mop Head',
      description: 'Fresher',
      priceCents: 1399,
      category: 'mops',
      dimensions: { length: 10, width: 4, height: 2 },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().product).toMatchObject({
      inventory: 7,
      description: 'Fresher',
      images: ['/images/placeholder.svg'],
      dimensions: { length: 10, width: 4, height: 2 },
    });
    const list = (await admin.get('/api/admin/products?pageSize=1')).json();
    expect(list.items[0].id).toBe(p.id);
    expect((await admin.post('/api/admin/products', { name: '', description: 'x', priceCents: 1, inventory: 1 })).json().error).toContain(
      'Name is required',
    );
    expect(
      (await admin.post('/api/admin/products', { name: 'x', description: 'x', priceCents: 1, inventory: 1, category: 'nope' })).statusCode,
    ).toBe(400);
    expect((await admin.request('DELETE', `/api/admin/products/${p.id}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${p.id}` })).statusCode).toBe(404);
  });

  it('uploads images checked by content and serves them with cache headers', async () => {
    const ok = await t.app.inject({ method: 'POST', url: '/api/admin/uploads?kind=products', ...multipart('file', PNG) });
    expect(ok.statusCode).toBe(201);
    const url = ok.json().url as string;
    expect(url).toMatch(/^\/uploads\/products\/[a-z0-9-]+\.png$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toContain('immutable');
    const fake = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads',
      ...multipart('file', Buffer.from('<svg onload=alert(1)>'), 'x.png'),
    });
    expect(fake.statusCode).toBe(415);
    expect(fake.json().error).toBe(ADMIN_MESSAGES.imageType);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads',
      ...multipart('file', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)])),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe(ADMIN_MESSAGES.imageSize);
  });

  it('validates categories with the spec messages and refuses to delete one that holds products', async () => {
    const bad = async (o: object) => (await admin.post('/api/admin/categories', { id: 'ok-id', name: 'Fine', ...o })).json().error;
    expect(await bad({ id: 'ab' })).toContain(CATEGORY_MESSAGES.idMin);
    expect(await bad({ id: 'a'.repeat(51) })).toContain(CATEGORY_MESSAGES.idMax);
    expect(await bad({ id: 'Bad_Id' })).toContain(CATEGORY_MESSAGES.idPattern);
    expect(await bad({ name: 'A' })).toContain(CATEGORY_MESSAGES.nameMin);
    expect(await bad({ name: 'A'.repeat(51) })).toContain(CATEGORY_MESSAGES.nameMax);
    expect((await admin.post('/api/admin/categories', { id: 'sponges', name: 'Sponges' })).statusCode).toBe(201);
    expect((await admin.post('/api/admin/categories', { id: 'sponges', name: 'Sponges' })).statusCode).toBe(409);
    expect((await admin.request('PUT', '/api/admin/categories/sponges', { name: 'Sponges & Pads' })).json().category.name).toBe(
      'Sponges & Pads',
    );
    const inUse = await admin.request('DELETE', '/api/admin/categories/mops');
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error).toMatch(/^This category still holds \d+ products?\./);
    expect((await admin.request('DELETE', '/api/admin/categories/sponges')).statusCode).toBe(200);
  });
});
