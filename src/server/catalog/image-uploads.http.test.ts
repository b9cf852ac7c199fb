import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { exifSegment, jpeg, jpegSegment, png, pngChunk, webpExtended, uploadAsAdmin } from '../test/images.js';

/**
 * Uploaded images: a picture too large to draw is refused by its declared pixels however small
 * its file, and what the shop stores (and serves) has no camera or editor metadata.
 */
// Its uploads in a folder the shop creates itself (the modes of one that already exists are the owner's).
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const upload = (content: Buffer, kind = 'products') => uploadAsAdmin(t.app, admin.cookies, content, { kind, type: 'image/png' });

const storedFiles = (kind = 'products') => {
  const dir = path.resolve(t.config.uploadDir, kind);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

describe('image uploads', () => {
  it('refuses a small PNG that declares 20,000 × 20,000 pixels, naming its size and the limits, and stores nothing', async () => {
    const bomb = png(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100_000);
    const before = storedFiles();
    const res = await upload(bomb);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(ADMIN_MESSAGES.imageDimensions(20_000, 20_000));
    expect(res.json().error).toContain('20000 × 20000 pixels');
    expect(res.json().error).toContain('8000 pixels');
    expect(storedFiles()).toEqual(before);
  });

  it('refuses too many pixels in any format: a tall JPEG, a wide WebP', async () => {
    for (const [file, w, h] of [
      [jpeg(2000, 9000), 2000, 9000],
      [webpExtended(7000, 7000, 'x', 'y'), 7000, 7000],
    ] as const) {
      const res = await upload(file);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(ADMIN_MESSAGES.imageDimensions(w, h));
    }
  });

  it('refuses a file that claims to be a PNG but does not hold together', async () => {
    const res = await upload(Buffer.concat([png(2, 2).subarray(0, 8), Buffer.alloc(64, 1)]));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(ADMIN_MESSAGES.imageUnreadable);
  });

  it('stores and serves the picture without its metadata', async () => {
    const photo = png(16, 16, [pngChunk('tEXt', Buffer.from('GPS\u000048.8584 N 2.2945 E', 'latin1'))]);
    const res = await upload(photo);
    expect(res.statusCode).toBe(201);
    const served = await t.app.inject({ method: 'GET', url: res.json().url as string });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.toString('latin1')).not.toContain('48.8584');
    expect(served.rawPayload).toEqual(png(16, 16));

    const cameraJpeg = jpeg(400, 300, [exifSegment(1, 'SERIAL-998877'), jpegSegment(0xfe, Buffer.from('edited by Jane'))]);
    const jpg = await upload(cameraJpeg);
    expect(jpg.statusCode).toBe(201);
    const stored = fs.readFileSync(path.resolve(t.config.uploadDir, (jpg.json().url as string).replace(/^\/uploads\//, '')));
    expect(stored.toString('latin1')).not.toContain('SERIAL-998877');
    expect(stored.toString('latin1')).not.toContain('edited by Jane');
  });

  it('keeps uploads private to the shop’s user on disk: files 0600, folders 0700', async () => {
    const previous = process.umask(0o022);
    try {
      const res = await upload(png(8, 8), 'content');
      expect(res.statusCode).toBe(201);
      const file = path.resolve(t.config.uploadDir, (res.json().url as string).replace(/^\/uploads\//, ''));
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });
});
