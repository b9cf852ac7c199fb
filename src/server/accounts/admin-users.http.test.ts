import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { LOYALTY_MESSAGES } from '../../shared/schemas/admin/users.js';
import { patchUser } from './admin-users.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

describe('admin users', () => {
  it('searches users and toggles verification, role and loyalty points (never below 0)', async () => {
    const u = await createUser(t.db, { email: 'toggle.me@example.com', fullName: 'Toggle Me' });
    const found = (await admin.get('/api/admin/users?search=TOGGLE')).json();
    expect(found.items.map((x: { id: string }) => x.id)).toEqual([u.id]);
    expect((await admin.get('/api/admin/users?search=nobody-at-all')).json().items).toEqual([]);
    const patch = (body: object) => admin.request('PATCH', `/api/admin/users/${u.id}`, body);
    expect((await patch({ emailVerified: true })).json().user.emailVerified).toBe(true);
    expect((await patch({ role: 'admin' })).json().user.role).toBe('admin');
    const points = async () =>
      (await t.db.selectFrom('users').select('loyalty_points').where('id', '=', u.id).executeTakeFirstOrThrow()).loyalty_points;
    expect((await patch({ loyaltyPoints: 420 })).json().user.loyaltyPoints).toBe(420);
    // A negative balance is refused with a sentence, never clamped to 0 (issue 40).
    for (const loyaltyPoints of [-40, -2_000_000_000]) {
      const negative = await patch({ loyaltyPoints });
      expect(negative.statusCode).toBe(400);
      expect(negative.json().error).toContain(LOYALTY_MESSAGES.negative);
      expect(Number(await points())).toBe(420);
    }
    // Not a whole number: a readable 400, the stored value unchanged.
    await patch({ loyaltyPoints: 420 });
    const fractional = await patch({ loyaltyPoints: 1.5 });
    expect(fractional.statusCode).toBe(400);
    expect(typeof fractional.json().error).toBe('string');
    expect((await patch({ loyaltyPoints: 'lots' })).statusCode).toBe(400);
    expect(Number(await points())).toBe(420);
    const me = await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email).executeTakeFirstOrThrow();
    expect((await admin.request('PATCH', `/api/admin/users/${me.id}`, { role: 'client' })).json().error).toBe(ADMIN_MESSAGES.ownRole);
    expect((await admin.request('PATCH', '/api/admin/users/nope', { emailVerified: true })).statusCode).toBe(404);
    // Demoting the other admin works while another admin remains; never the last one.
    expect((await patch({ role: 'client' })).json().user.role).toBe('client');
    const other = await createUser(t.db, { email: 'second.admin@example.com', role: 'admin' });
    await t.db.updateTable('users').set({ role: 'client' }).where('id', '=', me.id).execute();
    const last = await admin.request('PATCH', `/api/admin/users/${other.id}`, { role: 'client' });
    expect(last.statusCode).toBe(403); // the caller is no longer an admin
    await t.db.updateTable('users').set({ role: 'admin' }).where('id', '=', me.id).execute();
    // With one admin left, demoting them is refused.
    await t.db.updateTable('users').set({ role: 'client' }).where('id', '=', other.id).execute();
    await expect(patchUser(t.db, { actorId: other.id }, me.id, { role: 'client' })).rejects.toThrow(ADMIN_MESSAGES.lastAdmin);
  });
});

describe("the owner's loyalty points adjustment", () => {
  const adjust = (id: string, body: object) => admin.post(`/api/admin/users/${id}/loyalty-adjustments`, body);
  const balance = async (id: string) =>
    Number((await t.db.selectFrom('users').select('loyalty_points').where('id', '=', id).executeTakeFirstOrThrow()).loyalty_points);

  it('adds and removes N points with a reason, answers the new balance and records it in the audit log', async () => {
    const u = await createUser(t.db, { email: 'points.adjust@example.com', loyaltyPoints: 253, totalPointsEarned: 253 });
    const removed = await adjust(u.id, { change: 'remove', points: 50, reason: 'Returned order #1042', fromBalance: 253 });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().user.loyaltyPoints).toBe(203);
    const added = await adjust(u.id, { change: 'add', points: 25, reason: 'Sorry for the late parcel' });
    expect(added.json().user.loyaltyPoints).toBe(228);
    expect(await balance(u.id)).toBe(228);
    const log = (await admin.get(`/api/admin/audit-log?action=user.loyalty_points_changed&pageSize=50`)).json();
    const mine = (log.items as { targetUserId?: string; target?: { id?: string }; details: Record<string, unknown> }[]).filter((e) =>
      JSON.stringify(e).includes(u.id),
    );
    expect(mine.map((e) => e.details)).toEqual(
      expect.arrayContaining([
        { from: 253, to: 203, change: 'remove', points: 50, reason: 'Returned order #1042' },
        { from: 203, to: 228, change: 'add', points: 25, reason: 'Sorry for the late parcel' },
      ]),
    );
  });

  it('refuses to remove more than the balance with a sentence, never clamping to 0', async () => {
    const u = await createUser(t.db, { email: 'points.refuse@example.com', loyaltyPoints: 40 });
    const res = await adjust(u.id, { change: 'remove', points: 50, reason: 'Typed -50' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(LOYALTY_MESSAGES.tooManyRemoved(50, 40));
    expect(res.json().error).toBe('Cannot remove 50 points: the balance is only 40. Remove at most 40.');
    expect(await balance(u.id)).toBe(40);
  });

  it('refuses a missing reason, a count that is not a whole number above 0, a moved balance, and an unknown user', async () => {
    const u = await createUser(t.db, { email: 'points.bad@example.com', loyaltyPoints: 100 });
    for (const [body, error] of [
      [{ change: 'add', points: 10, reason: ' ' }, LOYALTY_MESSAGES.reasonRequired],
      [{ change: 'add', points: 10 }, LOYALTY_MESSAGES.reasonRequired],
      [{ change: 'add', points: 0, reason: 'Nothing' }, LOYALTY_MESSAGES.pointsWhole],
      [{ change: 'remove', points: -50, reason: 'Negative' }, LOYALTY_MESSAGES.pointsWhole],
      [{ change: 'add', points: 2.5, reason: 'Half' }, LOYALTY_MESSAGES.pointsWhole],
    ] as const) {
      const res = await adjust(u.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toContain(error);
    }
    const moved = await adjust(u.id, { change: 'remove', points: 10, reason: 'Stale screen', fromBalance: 90 });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error).toBe(LOYALTY_MESSAGES.balanceMoved(100));
    expect(await balance(u.id)).toBe(100);
    expect((await adjust('user_nope', { change: 'add', points: 1, reason: 'Ghost' })).statusCode).toBe(404);
  });

  it('two removals at once never take the balance below 0', async () => {
    const u = await createUser(t.db, { email: 'points.race@example.com', loyaltyPoints: 60 });
    const answers = await Promise.all([1, 2, 3].map(() => adjust(u.id, { change: 'remove', points: 30, reason: 'Race' })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 400]);
    expect(await balance(u.id)).toBe(0);
  });
});
