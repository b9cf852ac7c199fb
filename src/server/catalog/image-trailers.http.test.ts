import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { jpegSegment, pngChunk, uploadAsAdmin } from '../test/images.js';

/**
 * What a phone or an editor hides in a picture beyond its pixels: data after the JPEG's end marker
 * (a motion photo's video, a maker's trailer) and PNG chunks no browser draws. The stored original
 * keeps neither, and still decodes to the same picture.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const stored = (url: string) => fs.readFileSync(path.resolve(t.config.uploadDir, url.replace(/^\/uploads\//, '')));

async function realJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('stored originals keep only the picture', () => {
  it('cuts a JPEG at its real end marker, past an FF D9 inside an embedded thumbnail, dropping a motion-photo video', async () => {
    const photo = await realJpeg(48, 32);
    const thumbnail = await realJpeg(8, 8);
    // An APP1 segment carrying a whole JPEG (its own FF D9 inside), as Exif thumbnails do.
    const app1 = jpegSegment(
      0xe1,
      Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.from('MM\0*\0\0\0\x08\0\0', 'latin1'), thumbnail]),
    );
    const video = Buffer.concat([
      Buffer.from('MotionPhoto_Data ftypmp42 SECRET-VIDEO-BYTES', 'latin1'),
      Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
    ]);
    const file = Buffer.concat([photo.subarray(0, 2), app1, photo.subarray(2), video]);

    const res = await uploadAsAdmin(t.app, admin.cookies, file, { type: 'image/jpeg' });
    expect(res.statusCode).toBe(201);
    const bytes = stored(res.json().url as string);
    expect(bytes.includes(Buffer.from('SECRET-VIDEO-BYTES'))).toBe(false);
    expect(bytes.includes(Buffer.from('MotionPhoto'))).toBe(false);
    // The picture itself is whole: the original's bytes from its first table to its EOI.
    expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect(bytes.includes(photo.subarray(photo.indexOf(Buffer.from([0xff, 0xda]))))).toBe(true);
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([48, 32]);
    expect((await sharp(bytes).raw().toBuffer()).length).toBe(48 * 32 * 3);
  });

  it('cuts a progressive JPEG (several scans) at its end, not at the first scan', async () => {
    const photo = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#a33' } })
      .jpeg({ progressive: true })
      .toBuffer();
    const res = await uploadAsAdmin(t.app, admin.cookies, Buffer.concat([photo, Buffer.from('TRAILER-AFTER-EOI')]), { type: 'image/jpeg' });
    expect(res.statusCode).toBe(201);
    const bytes = stored(res.json().url as string);
    expect(bytes.includes(Buffer.from('TRAILER-AFTER-EOI'))).toBe(false);
    expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect((await sharp(bytes).raw().toBuffer()).length).toBe(40 * 40 * 3);
  });

  it('keeps PNG chunks from an allow-list: text, EXIF and private chunks go, colour and transparency stay', async () => {
    const base = await sharp({ create: { width: 20, height: 10, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const ihdrEnd = 8 + 25;
    const extra = [
      pngChunk('tEXt', Buffer.from('Comment\0GPS 48.85N', 'latin1')),
      pngChunk('iTXt', Buffer.from('XML:com.adobe.xmp\0\0\0\0\0<x>author</x>', 'latin1')),
      pngChunk('eXIf', Buffer.from('MM\0*SERIAL-123', 'latin1')),
      pngChunk('prIv', Buffer.from('PRIVATE-PAYLOAD', 'latin1')),
      pngChunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f])),
      pngChunk('pHYs', Buffer.from([0, 0, 0x0b, 0x13, 0, 0, 0x0b, 0x13, 1])),
    ];
    const file = Buffer.concat([base.subarray(0, ihdrEnd), ...extra, base.subarray(ihdrEnd), Buffer.from('AFTER-IEND')]);
    const res = await uploadAsAdmin(t.app, admin.cookies, file, { type: 'image/png' });
    expect(res.statusCode).toBe(201);
    const bytes = stored(res.json().url as string);
    for (const gone of ['tEXt', 'iTXt', 'eXIf', 'prIv', 'PRIVATE-PAYLOAD', 'SERIAL-123', 'AFTER-IEND']) {
      expect(bytes.includes(Buffer.from(gone, 'latin1')), gone).toBe(false);
    }
    for (const kept of ['IHDR', 'gAMA', 'pHYs', 'IDAT', 'IEND']) expect(bytes.includes(Buffer.from(kept, 'latin1')), kept).toBe(true);
    const { info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([20, 10, 4]);
  });
});
