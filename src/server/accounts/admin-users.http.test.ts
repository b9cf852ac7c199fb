import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin.js';
import { patchUser } from './admin-users.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

describe('admin users', () => {
  it('searches users and toggles verification, role and loyalty points (clamped at 0)', async () => {
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
    // A negative value is accepted and stored as 0, never refused.
    const negative = await patch({ loyaltyPoints: -40 });
    expect(negative.statusCode).toBe(200);
    expect(negative.json().user.loyaltyPoints).toBe(0);
    expect(Number(await points())).toBe(0);
    await patch({ loyaltyPoints: 7 });
    const veryNegative = await patch({ loyaltyPoints: -2_000_000_000 });
    expect(veryNegative.statusCode).toBe(200);
    expect(Number(await points())).toBe(0);
    expect((await patchUser(t.db, { actorId: 'some-admin' }, u.id, { loyaltyPoints: -5 })).loyaltyPoints).toBe(0);
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
