import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createUser } from '../db/seed/factories.js';
import { insertTestOrder } from '../test/order-rows.js';

/** The customers CSV includes guest buyers: one row per e-mail address, marked guest (issue [2/8]). */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const csvRows = async (url: string) => {
  const res = await admin.get(url);
  expect(res.statusCode, res.body).toBe(200);
  // No field in these rows holds a comma inside quotes except the address, which is last but three.
  return res.body
    .split('\r\n')
    .filter(Boolean)
    .map((line) =>
      line
        .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
        .map((f) => f.replace(/,$/, '').replace(/^"|"$/g, ''))
        .slice(0, 10),
    );
};

async function guestOrder(
  email: string,
  o: { totalCents: number; createdAt: string; refundedCents?: number; name?: string; paymentStatus?: 'paid' | 'expired' },
) {
  const id = await insertTestOrder(t.db, {
    totalCents: o.totalCents,
    createdAt: o.createdAt,
    refundedCents: o.refundedCents ?? 0,
    paymentStatus: o.paymentStatus ?? 'paid',
  });
  await t.db
    .updateTable('orders')
    .set({
      email,
      shipping_address: JSON.stringify({
        name: o.name ?? 'Gus Guest',
        address: '3 Side St',
        city: 'Reno',
        state: 'NV',
        zip: '89501',
        country: 'US',
        email,
      }),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

describe('guest buyers in the customers CSV', () => {
  it('lists each guest address once, marked guest, with its orders and money spent, with and without a period', async () => {
    await guestOrder('gus@example.org', { totalCents: 3000, createdAt: '2026-05-02T15:00:00.000Z', name: 'Gus Old' });
    await guestOrder('gus@example.org', { totalCents: 2000, createdAt: '2026-06-02T15:00:00.000Z', refundedCents: 500, name: 'Gus Guest' });
    await guestOrder('gia@example.org', { totalCents: 1500, createdAt: '2026-06-03T15:00:00.000Z', name: 'Gia Guest' });
    // A checkout never paid is no order: its address is no buyer.
    await guestOrder('ghost@example.org', { totalCents: 9900, createdAt: '2026-06-04T15:00:00.000Z', paymentStatus: 'expired' });
    // An account holder who also bought once as a guest: the account's row and a guest row.
    const amy = await createUser(t.db, { email: 'amy@example.org', fullName: 'Amy Account' });
    const own = await insertTestOrder(t.db, { totalCents: 4000, createdAt: '2026-06-05T15:00:00.000Z' });
    await t.db.updateTable('orders').set({ user_id: amy.id, email: 'amy@example.org' }).where('id', '=', own).execute();
    await guestOrder('amy@example.org', { totalCents: 700, createdAt: '2026-06-06T15:00:00.000Z', name: 'Amy Account' });

    const all = await csvRows('/api/admin/exports/customers.csv');
    const guests = all.filter((r) => r[5] === 'guest');
    expect(guests.map((r) => r[2])).toEqual(['amy@example.org', 'gia@example.org', 'gus@example.org']);
    const gus = guests.find((r) => r[2] === 'gus@example.org')!;
    // No account id, the latest order's name and address, no points, 2 orders, 45.00 net, first order's day.
    expect(gus.slice(0, 9)).toEqual([
      '',
      'Gus Guest',
      'gus@example.org',
      '',
      'Gus Guest, 3 Side St, Reno, NV 89501, US',
      'guest',
      '',
      '2',
      '45.00',
    ]);
    expect(gus[9]).toMatch(/^2026-05-02 \d{2}:\d{2}$/);
    expect(all.find((r) => r[0] === amy.id)?.slice(7, 9)).toEqual(['1', '40.00']);
    expect(guests.find((r) => r[2] === 'amy@example.org')?.slice(7, 9)).toEqual(['1', '7.00']);
    expect(all.some((r) => r[2] === 'ghost@example.org')).toBe(false);

    // June only: Amy's account (40.00), Gus (15.00 in June), Gia (15.00), Amy as a guest (7.00).
    const june = await csvRows('/api/admin/exports/customers.csv?from=2026-06-01&to=2026-06-30');
    expect(june.slice(1).map((r) => [r[2], r[5], r[7], r[8]])).toEqual([
      ['amy@example.org', 'client', '1', '40.00'],
      ['gia@example.org', 'guest', '1', '15.00'],
      ['gus@example.org', 'guest', '1', '15.00'],
      ['amy@example.org', 'guest', '1', '7.00'],
    ]);
  });

  it('streams more guests than one batch, each address once', async () => {
    const at = '2026-03-01T15:00:00.000Z';
    const ids = Array.from({ length: 1030 }, (_, i) => `bulk${String(i).padStart(4, '0')}@example.org`);
    const rows = ids.map((email, i) => ({
      id: `order_bulkguest${i}`,
      order_number: `BG${String(i).padStart(6, '0')}`,
      user_id: null,
      email,
      status: 'completed' as const,
      payment_status: 'paid' as const,
      payment_provider: 'stripe',
      payment_session_id: null,
      shipping_address: null,
      billing_address: null,
      subtotal_cents: 100,
      discount_cents: 0,
      shipping_cents: 0,
      tax_cents: 0,
      total_cents: 100,
      refunded_cents: 0,
      coupon_code: null,
      shipping_option_id: null,
      shipstation_data: null,
      shipstation_tracking_number: null,
      guest_token_hash: null,
      created_at: at,
      updated_at: at,
      paid_at: at,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.db
        .insertInto('orders')
        .values(rows.slice(i, i + 200))
        .execute();
    const all = await csvRows('/api/admin/exports/customers.csv');
    const bulk = all.filter((r) => r[5] === 'guest' && r[2]!.startsWith('bulk')).map((r) => r[2]);
    expect(bulk).toEqual(ids);
  });

  it('is for admins only', async () => {
    expect((await new TestClient(t.app, '10.0.3.1').get('/api/admin/exports/customers.csv')).statusCode).toBe(401);
  });
});
