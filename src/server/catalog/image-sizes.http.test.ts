import crypto from 'node:crypto';
import { uploadAsAdmin } from '../test/images.js';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { IMAGE_VARIANT_WIDTHS, imageVariantPath } from '../../shared/image-variants.js';
import { backfillImageVariants } from './image-variants.js';

/**
 * Uploaded photos at the size shown: beside the original, smaller WebP copies (and copies in the
 * original's format) at the widths the storefront draws, upright, without metadata, never wider
 * than the original; photos uploaded before get them at the next start.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const upload = (content: Buffer, kind = 'products') => uploadAsAdmin(t.app, admin.cookies, content, { kind, type: 'image/jpeg' });

/** Random pixels: a photo that compresses as badly as a real one (a gradient would be a few KB). */
function noise(width: number, height: number) {
  return sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });
}

const onDisk = (url: string) => path.resolve(t.config.uploadDir, url.replace(/^\/uploads\//, ''));

describe('image sizes', () => {
  it('writes WebP and JPEG variants at each width of a 4,000 × 3,000 camera photo, quickly, served with their types', async () => {
    const photo = await noise(4000, 3000).jpeg({ quality: 50 }).toBuffer();
    expect(photo.length).toBeGreaterThan(3_000_000);
    const started = Date.now();
    const res = await upload(photo);
    const took = Date.now() - started;
    console.log(`4,000 × 3,000 JPEG of ${photo.length} bytes uploaded in ${took} ms`);
    expect(res.statusCode).toBe(201);
    expect(took).toBeLessThan(4000);
    const url = res.json<{ url: string }>().url;
    for (const width of IMAGE_VARIANT_WIDTHS) {
      for (const [format, type] of [
        ['webp', 'image/webp'],
        [undefined, 'image/jpeg'],
      ] as const) {
        const variant = imageVariantPath(url, width, format);
        const meta = await sharp(onDisk(variant)).metadata();
        expect(meta.format, variant).toBe(format ?? 'jpeg');
        expect([meta.width, meta.height], variant).toEqual([width, (width * 3) / 4]);
        const served = await t.app.inject({ url: variant });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(type);
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(served.rawPayload.length).toBeLessThan(photo.length / 10);
      }
    }
  });

  it('turns the variants upright by the EXIF orientation and keeps no metadata', async () => {
    // Stored 800 × 500, orientation 6: the camera was turned; the photo is 500 × 800 upright.
    const photo = await noise(800, 500)
      .jpeg({ quality: 80 })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Artist: 'Jane Doe', Copyright: 'SERIAL-998877' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).orientation).toBe(6);
    const res = await upload(photo);
    expect(res.statusCode).toBe(201);
    const url = res.json<{ url: string }>().url;
    for (const format of ['webp', undefined] as const) {
      const variant = imageVariantPath(url, 320, format);
      const bytes = fs.readFileSync(onDisk(variant));
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height]).toEqual([320, 512]);
      expect(meta.orientation).toBeUndefined();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(bytes.includes('SERIAL-998877')).toBe(false);
      expect(bytes.includes('Jane Doe')).toBe(false);
    }
  });

  it('never makes a variant wider than a small photo', async () => {
    const res = await upload(await noise(200, 150).png().toBuffer(), 'categories');
    expect(res.statusCode).toBe(201);
    const url = res.json<{ url: string }>().url;
    expect(url).toMatch(/\.png$/);
    for (const width of IMAGE_VARIANT_WIDTHS) {
      // Every width the client may ask for exists; none is upscaled.
      const webp = await sharp(onDisk(imageVariantPath(url, width, 'webp'))).metadata();
      const own = await sharp(onDisk(imageVariantPath(url, width))).metadata();
      expect([webp.format, webp.width, webp.height]).toEqual(['webp', 200, 150]);
      expect([own.format, own.width, own.height]).toEqual(['png', 200, 150]);
    }
  });

  it('makes the variants missing for photos uploaded before, once', async () => {
    const folder = path.resolve(t.config.uploadDir, 'content');
    fs.mkdirSync(folder, { recursive: true });
    const old = path.join(folder, 'older-photo.jpg');
    fs.writeFileSync(old, await noise(1000, 800).jpeg().toBuffer());
    fs.writeFileSync(path.join(folder, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(path.join(folder, 'broken.png'), Buffer.from('not a png'));
    // One uploaded with variants, one of which was lost.
    const res = await upload(await noise(700, 700).webp().toBuffer(), 'content');
    const lost = onDisk(imageVariantPath(res.json<{ url: string }>().url, 960, 'webp'));
    fs.rmSync(lost);

    const logged: string[] = [];
    const made = await backfillImageVariants(t.files, (msg) => logged.push(msg));
    expect(made).toBe(IMAGE_VARIANT_WIDTHS.length * 2 + 1);
    expect(logged).toEqual(['could not make the variants of content/broken.png']);
    expect((await sharp(imageVariantPath(old, 640, 'webp')).metadata()).width).toBe(640);
    expect((await sharp(imageVariantPath(old, 1280)).metadata()).width).toBe(1000);
    expect(fs.existsSync(lost)).toBe(true);
    expect(fs.readdirSync(folder).filter((f) => f.startsWith('logo'))).toEqual(['logo.svg']);
    expect(fs.readdirSync(folder).some((f) => f.endsWith('.tmp'))).toBe(false);

    expect(await backfillImageVariants(t.files)).toBe(0);
  });
});
