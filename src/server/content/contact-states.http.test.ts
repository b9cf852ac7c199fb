import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { CONTACT_MESSAGE_TEXTS } from '../../shared/schemas/contact-messages.js';

/** Contact messages the owner marks unread, read or answered (issue [2/8], migration 0036). */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

type Page = {
  items: { id: string; subject: string; state: string; stateChangedAt: string | null }[];
  total: number;
  counts: { unread: number; read: number; answered: number };
};
const list = async (query = ''): Promise<Page> => {
  const res = await admin.get(`/api/admin/contact-messages${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const mark = (id: string, body: unknown) => admin.request('PATCH', `/api/admin/contact-messages/${id}/state`, body);

describe('contact message states', () => {
  it('arrive unread; the owner marks them read or answered; the list filters by state and counts the unread', async () => {
    for (const [n, subject] of ['Refill sizes', 'Wholesale', 'Broken lid'].entries()) {
      const c = new TestClient(t.app, `10.61.0.${n + 1}`);
      const sent = await c.post('/api/contact', {
        name: 'Ann Asker',
        email: 'ann@example.com',
        subject,
        message: 'Hello there',
        elapsedMs: 5000,
      });
      expect(sent.json()).toEqual({ ok: true });
    }
    const all = await list();
    expect(all.items.map((m) => [m.subject, m.state])).toEqual([
      ['Broken lid', 'unread'],
      ['Wholesale', 'unread'],
      ['Refill sizes', 'unread'],
    ]);
    expect(all.counts).toEqual({ unread: 3, read: 0, answered: 0 });
    expect((await admin.get('/api/admin/contact-messages/counts')).json()).toEqual({ unread: 3, read: 0, answered: 0 });

    const [lid, wholesale] = all.items;
    const read = await mark(lid!.id, { state: 'read' });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().message).toMatchObject({ id: lid!.id, state: 'read', stateChangedAt: expect.any(String) });
    expect((await mark(wholesale!.id, { state: 'answered' })).statusCode).toBe(200);

    const unread = await list('?state=unread');
    expect(unread.items.map((m) => m.subject)).toEqual(['Refill sizes']);
    expect(unread.total).toBe(1);
    expect((await list('?state=answered')).items.map((m) => m.subject)).toEqual(['Wholesale']);
    expect((await list('?state=read')).items.map((m) => m.subject)).toEqual(['Broken lid']);
    expect((await admin.get('/api/admin/contact-messages/counts')).json()).toEqual({ unread: 1, read: 1, answered: 1 });
    const stored = await t.db.selectFrom('contact_messages').select(['subject', 'state']).orderBy('subject').execute();
    expect(stored).toEqual([
      { subject: 'Broken lid', state: 'read' },
      { subject: 'Refill sizes', state: 'unread' },
      { subject: 'Wholesale', state: 'answered' },
    ]);

    // Back to unread.
    expect((await mark(lid!.id, { state: 'unread' })).statusCode).toBe(200);
    expect((await list()).counts.unread).toBe(2);
  });

  it('answers 400 for a state that is not one, 404 for an unknown message, and only to admins', async () => {
    const c = new TestClient(t.app, '10.61.1.1');
    await c.post('/api/contact', { name: 'Bo', email: 'bo@example.com', subject: 'Hi', message: 'Hi', elapsedMs: 5000 });
    const [m] = (await list()).items;
    for (const body of [{ state: 'done' }, {}, { state: 'read', extra: 1 }]) {
      const res = await mark(m!.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect((await mark(m!.id, { state: 'done' })).json().error).toContain('state must be one of: unread, read, answered');
    expect((await admin.get('/api/admin/contact-messages?state=done')).statusCode).toBe(400);
    const missing = await mark('msg_nope', { state: 'read' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(CONTACT_MESSAGE_TEXTS.notFound);

    expect(
      (await new TestClient(t.app, '10.61.1.2').request('PATCH', `/api/admin/contact-messages/${m!.id}/state`, { state: 'read' }))
        .statusCode,
    ).toBe(401);
    const customer = new TestClient(t.app, '10.61.1.3');
    expect((await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password)).statusCode).toBe(200);
    expect((await customer.get('/api/admin/contact-messages/counts')).statusCode).toBe(403);
  });
});
