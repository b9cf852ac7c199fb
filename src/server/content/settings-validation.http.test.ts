import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { testDialect } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { CONTACT_PHONE_INVALID, HERO_VIDEO_ACCEPTED } from '../../shared/schemas/content.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const general = (contact_phone: string) =>
  admin.request('PUT', '/api/admin/settings/general', { contact_email: 'hello@shop.test', contact_phone, contact_hours: '' });
const home = {
  homepage_hero_title: 'Hero',
  homepage_hero_subtitle: 'Sub',
  homepage_hero_description: 'Desc',
  homepage_about_title: 'About',
  homepage_about_description: 'Text',
};
const video = (hero_video_url: string) => admin.request('PUT', '/api/admin/content/homepage', { ...home, hero_video_url });

describe(`settings checked on the server on ${testDialect()}`, () => {
  it('takes a contact phone written as people write one, and stores it as typed', async () => {
    for (const phone of ['(555) 123-4567', '+1 555 123 4567', '+44 20 7946 0958', '555.123.4567', '']) {
      const res = await general(phone);
      expect(res.statusCode, `${phone}: ${res.body}`).toBe(200);
      expect(res.json().settings.contact_phone).toBe(phone);
    }
  });

  it('refuses a contact phone that is not one, with a sentence, and keeps the stored one', async () => {
    await general('(555) 123-4567');
    for (const phone of ['call us', '555-CLEAN', '12345', '1234567890123456', '<b>555 1234</b>', '555 123 4567 ext. 9']) {
      const res = await general(phone);
      expect({ phone, status: res.statusCode, error: res.json().error }).toEqual({
        phone,
        status: 400,
        error: `contact_phone: ${CONTACT_PHONE_INVALID}`,
      });
    }
    const stored = await t.db.selectFrom('settings').select('value').where('key', '=', 'contact_phone').executeTakeFirstOrThrow();
    expect(stored.value).toBe('(555) 123-4567');
  });

  it('takes a YouTube or Vimeo video (stored in embed form) or a video file', async () => {
    const cases = [
      ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
      ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
      ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
      ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871'],
      ['https://cdn.shop.test/media/hero.mp4', 'https://cdn.shop.test/media/hero.mp4'],
      ['https://cdn.shop.test/media/hero.webm?v=2', 'https://cdn.shop.test/media/hero.webm?v=2'],
      ['', ''],
    ] as const;
    for (const [given, stored] of cases) {
      const res = await video(given);
      expect(res.statusCode, `${given}: ${res.body}`).toBe(200);
      expect(res.json().settings.hero_video_url).toBe(stored);
    }
  });

  it('refuses any other page with a sentence saying what is accepted', async () => {
    for (const url of [
      'https://www.example.com/',
      'https://www.youtube.com/@ecoclean',
      'https://www.youtube.com/results?search_query=cleaning',
      'https://vimeo.com/channels/staffpicks',
      'http://cdn.shop.test/media/hero.mp4',
      'https://cdn.shop.test/media/hero.mp4.html',
      'javascript:alert(1)',
    ]) {
      const res = await video(url);
      expect({ url, status: res.statusCode, error: res.json().error }).toEqual({
        url,
        status: 400,
        error: `hero_video_url: ${HERO_VIDEO_ACCEPTED}`,
      });
    }
  });

  it('a shopper cannot save settings', async () => {
    expect((await new TestClient(t.app).request('PUT', '/api/admin/settings/general', { contact_phone: '555 1234' })).statusCode).toBe(401);
  });
});
