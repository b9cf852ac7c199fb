import type { FastifyInstance } from 'fastify';
import zlib from 'node:zlib';

/** Image files built byte by byte for the upload tests: valid structure, any declared size, any metadata. */

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A PNG declaring `width` × `height` RGB pixels, with `extra` chunks after IHDR. Its pixel data is
 * real for small sizes; for a huge declared size it is a few rows only (the attack's shape: a small
 * file whose header makes a browser allocate gigabytes).
 */
export function png(width: number, height: number, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows = Math.min(height, 4);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(Math.min(width, 4096) * 3, 0x4f)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...extra,
    pngChunk('IDAT', zlib.deflateSync(Buffer.concat(Array.from({ length: rows }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export function jpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** An APP1 Exif segment with an orientation and a text tag (a camera's serial, say) in IFD0, little-endian. */
export function exifSegment(orientation: number, text: string): Buffer {
  const value = Buffer.from(`${text}\0`, 'latin1');
  const tiff = Buffer.alloc(8 + 2 + 24 + 4);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(2, 8);
  // Orientation, SHORT, 1
  tiff.writeUInt16LE(0x0112, 10);
  tiff.writeUInt16LE(3, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  // BodySerialNumber-like ASCII tag pointing after the IFD
  tiff.writeUInt16LE(0xa431, 22);
  tiff.writeUInt16LE(2, 24);
  tiff.writeUInt32LE(value.length, 26);
  tiff.writeUInt32LE(tiff.length, 30);
  tiff.writeUInt32LE(0, 34);
  return jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff, value]));
}

/** A baseline JPEG's structure declaring `width` × `height`, with `segments` before its tables. */
export function jpeg(width: number, height: number, segments: Buffer[] = []): Buffer {
  const sof = Buffer.from([8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jpegSegment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    ...segments,
    jpegSegment(0xdb, Buffer.alloc(65, 1)),
    jpegSegment(0xc0, sof),
    jpegSegment(0xc4, Buffer.alloc(20, 0)),
    jpegSegment(0xda, Buffer.from([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0])),
    Buffer.from([0x12, 0x34, 0xff, 0x00, 0x56, 0xff, 0xd0, 0x78]),
    Buffer.from([0xff, 0xd9]),
  ]);
}

export function webpChunk(fourcc: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

export function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}

/** A lossless WebP (VP8L) header declaring `width` × `height`. */
export function webpLossless(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  return riff([webpChunk('VP8L', data)]);
}

/** A lossy WebP (VP8) header declaring `width` × `height`. */
export function webpLossy(width: number, height: number): Buffer {
  const data = Buffer.alloc(12);
  data.set([0x9d, 0x01, 0x2a], 3);
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return riff([webpChunk('VP8 ', data)]);
}

/** An extended WebP: VP8X canvas `width` × `height` with EXIF and XMP flagged and present, an ICC profile too. */
export function webpExtended(width: number, height: number, exif: string, xmp: string): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x20 | 0x08 | 0x04; // ICC, EXIF, XMP
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const lossless = Buffer.alloc(10);
  lossless[0] = 0x2f;
  lossless.writeUInt32LE(((Math.min(width, 16384) - 1) & 0x3fff) | (((Math.min(height, 16384) - 1) & 0x3fff) << 14), 1);
  return riff([
    webpChunk('VP8X', vp8x),
    webpChunk('ICCP', Buffer.from('icc-profile-bytes', 'latin1')),
    webpChunk('VP8L', lossless),
    webpChunk('EXIF', Buffer.from(exif, 'latin1')),
    webpChunk('XMP ', Buffer.from(xmp, 'latin1')),
  ]);
}

/** Uploads `content` as a signed-in admin would, through the multipart upload route (`kind`: its folder). */
export function uploadAsAdmin(
  app: FastifyInstance,
  cookies: Map<string, string>,
  content: Buffer,
  { kind = 'products', type = 'image/png' }: { kind?: string; type?: string } = {},
) {
  const boundary = `----shoptest${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo"\r\nContent-Type: ${type}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url: `/api/admin/uploads?kind=${kind}`,
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: 'http://shop.test',
    },
  });
}
