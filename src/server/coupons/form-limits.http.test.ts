import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { LOYALTY_POINTS_TOO_MANY } from '../../shared/schemas/admin/users.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const long = (n: number) => 'x'.repeat(n);

// The API names the field before a message that does not ("estimatedDays: Estimated days cannot…"); the forms show the message itself.
describe('refusals a person can act on (issue 28: no silent failure)', () => {
  it('coupon codes are letters, digits and dashes, upper-cased; an over-long code or description names its limit', async () => {
    for (const code of ['SPRING 10', 'SAVE_5', 'ÉTÉ10', '10%OFF', 'a.b']) {
      const res = await admin.post('/api/admin/coupons', { code, discountValue: 10 });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().error, code).toBe(ADMIN_MESSAGES.couponCodeChars);
    }
    const ok = await admin.post('/api/admin/coupons', { code: ' summer-2026 ', discountValue: 10 });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().coupon.code).toBe('SUMMER-2026');
    expect(await t.db.selectFrom('coupons').select('code').where('code', '=', 'SUMMER-2026').executeTakeFirst()).toBeDefined();

    expect((await admin.post('/api/admin/coupons', { code: long(51), discountValue: 10 })).json().error).toBe(
      'Code cannot exceed 50 characters',
    );
    expect((await admin.post('/api/admin/coupons', { code: 'LONGDESC', description: long(501), discountValue: 10 })).json().error).toBe(
      'Description cannot exceed 500 characters',
    );
  });

  it('products and shipping options: each over-long field says its own limit, never "is required" or zod’s raw text', async () => {
    const product = { name: 'Cloth', description: 'Soft', priceCents: 500, inventory: 3 };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: long(5000) }, 'Name cannot exceed 200 characters'],
      [{ description: long(5001) }, 'Description cannot exceed 5,000 characters'],
      [{ sku: long(101) }, 'SKU cannot exceed 100 characters'],
      [{ brand: long(101) }, 'Brand cannot exceed 100 characters'],
    ];
    for (const [patch, message] of cases) {
      const res = await admin.post('/api/admin/products', { ...product, ...patch });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error, message).toContain(message);
    }
    const option = { name: 'Courier', priceCents: 900 };
    const shipping: [Record<string, unknown>, string][] = [
      [{ name: long(5000) }, 'Name cannot exceed 100 characters'],
      [{ estimatedDays: long(51) }, 'Estimated days cannot exceed 50 characters'],
      [{ description: long(501) }, 'Description cannot exceed 500 characters'],
    ];
    for (const [patch, message] of shipping) {
      const res = await admin.post('/api/admin/shipping-options', { ...option, ...patch });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error, message).toContain(message);
    }
  });

  it('loyalty points: a huge number is too big, a string like "1e3" is not a number of points; stored points unchanged', async () => {
    const customer = await t.db
      .selectFrom('users')
      .select(['id', 'loyalty_points'])
      .where('email', '=', DEMO_CUSTOMER.email)
      .executeTakeFirstOrThrow();
    const patch = (body: unknown) => admin.request('PATCH', `/api/admin/users/${customer.id}`, body);
    for (const loyaltyPoints of [1_000_001, 1e21]) {
      const res = await patch({ loyaltyPoints });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(LOYALTY_POINTS_TOO_MANY);
    }
    for (const loyaltyPoints of ['1e3', '1000', 12.5]) {
      const res = await patch({ loyaltyPoints });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('Loyalty points must be a whole number.');
    }
    const after = await t.db.selectFrom('users').select('loyalty_points').where('id', '=', customer.id).executeTakeFirstOrThrow();
    expect(after.loyalty_points).toBe(customer.loyalty_points);
    const ok = await patch({ loyaltyPoints: 1_000_000 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.loyaltyPoints).toBe(1_000_000);
  });
});
