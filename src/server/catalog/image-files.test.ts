import { describe, expect, it } from 'vitest';
import { exifOrientation, MalformedImageError, readImage } from './image-files.js';
import { imageFitsLimits } from './uploads.js';
import { exifSegment, jpeg, jpegSegment, png, pngChunk, riff, webpChunk, webpExtended, webpLossless, webpLossy } from '../test/images.js';

const text = (b: Buffer) => b.toString('latin1');

describe('pixel dimensions read from the header', () => {
  it('PNG (IHDR), JPEG (SOF), WebP lossy, lossless and extended', () => {
    expect(readImage(png(20_000, 20_000))?.info).toEqual({ type: 'png', width: 20_000, height: 20_000 });
    expect(readImage(png(3, 2))?.info).toEqual({ type: 'png', width: 3, height: 2 });
    expect(readImage(jpeg(6000, 4000))?.info).toEqual({ type: 'jpg', width: 6000, height: 4000 });
    expect(readImage(webpLossy(1200, 800))?.info).toEqual({ type: 'webp', width: 1200, height: 800 });
    expect(readImage(webpLossless(16_384, 9))?.info).toEqual({ type: 'webp', width: 16_384, height: 9 });
    expect(readImage(webpExtended(30_000, 20_000, 'x', 'y'))?.info).toEqual({ type: 'webp', width: 30_000, height: 20_000 });
  });

  it('JPEG: fill bytes before a marker and a progressive frame header', () => {
    const progressive = jpeg(640, 480);
    const at = progressive.indexOf(Buffer.from([0xff, 0xc0]));
    progressive[at + 1] = 0xc2;
    expect(readImage(progressive)?.info).toEqual({ type: 'jpg', width: 640, height: 480 });
    const filled = Buffer.concat([progressive.subarray(0, 2), Buffer.from([0xff, 0xff]), progressive.subarray(2)]);
    expect(readImage(filled)?.info).toEqual({ type: 'jpg', width: 640, height: 480 });
  });

  it('not an image of these kinds: null; one that does not hold together: MalformedImageError', () => {
    expect(readImage(Buffer.from('<svg onload=alert(1)>'))).toBeNull();
    expect(readImage(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBeNull();
    const signatureOnly = Buffer.concat([png(2, 2).subarray(0, 8), Buffer.alloc(64, 1)]);
    expect(() => readImage(signatureOnly)).toThrow(MalformedImageError);
    expect(() => readImage(png(2, 2).subarray(0, 40))).toThrow(MalformedImageError);
    // A chunk before IHDR.
    const sig = png(2, 2).subarray(0, 8);
    expect(() => readImage(Buffer.concat([sig, pngChunk('tEXt', Buffer.from('a\0b')), pngChunk('IEND', Buffer.alloc(0))]))).toThrow(
      MalformedImageError,
    );
    // JPEG cut before its scan, and one without a frame header.
    const j = jpeg(10, 10);
    expect(() => readImage(j.subarray(0, j.indexOf(Buffer.from([0xff, 0xc0]))))).toThrow(MalformedImageError);
    expect(() => readImage(Buffer.concat([Buffer.from([0xff, 0xd8]), jpegSegment(0xda, Buffer.alloc(10))]))).toThrow(MalformedImageError);
    // WebP whose RIFF size or chunk size lies, and one whose first chunk is no image.
    const w = webpLossy(10, 10);
    const lying = Buffer.from(w);
    lying.writeUInt32LE(10_000, 4);
    expect(() => readImage(lying)).toThrow(MalformedImageError);
    expect(() => readImage(riff([webpChunk('EXIF', Buffer.from('x'))]))).toThrow(MalformedImageError);
  });

  it('the limits: 8000 px a side and 25 megapixels', () => {
    expect(imageFitsLimits(6000, 4000)).toBe(true);
    expect(imageFitsLimits(8000, 3000)).toBe(true);
    expect(imageFitsLimits(8001, 10)).toBe(false);
    expect(imageFitsLimits(10, 8001)).toBe(false);
    expect(imageFitsLimits(7000, 7000)).toBe(false);
    expect(imageFitsLimits(20_000, 20_000)).toBe(false);
  });
});

describe('metadata stripped', () => {
  it('PNG: text, EXIF and time chunks go, the picture and its colour profile stay, nothing after IEND', () => {
    const original = png(4, 4, [
      pngChunk('tEXt', Buffer.from('Author\0Jane Secret', 'latin1')),
      pngChunk('zTXt', Buffer.from('Comment\0\0xxxx', 'latin1')),
      pngChunk('iTXt', Buffer.from('XML:com.adobe.xmp\0\0\0\0\0<gps>48.85</gps>', 'latin1')),
      pngChunk('eXIf', Buffer.from('MM\0*GPSDATA', 'latin1')),
      pngChunk('tIME', Buffer.alloc(7, 1)),
      pngChunk('iCCP', Buffer.from('sRGB\0\0profile', 'latin1')),
    ]);
    const withTrailer = Buffer.concat([original, Buffer.from('hidden after the end')]);
    const stripped = readImage(withTrailer)!.stripped();
    for (const gone of ['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME', 'Jane Secret', '48.85', 'GPSDATA', 'hidden after']) {
      expect(text(stripped)).not.toContain(gone);
    }
    expect(text(stripped)).toContain('iCCP');
    expect(readImage(stripped)?.info).toEqual({ type: 'png', width: 4, height: 4 });
    // The same bytes as the file without those chunks: IHDR, iCCP, IDAT, IEND.
    expect(stripped).toEqual(png(4, 4, [pngChunk('iCCP', Buffer.from('sRGB\0\0profile', 'latin1'))]));
  });

  it('JPEG: Exif (but its orientation), XMP, comments and other APPn go; JFIF, ICC, Adobe and the image data stay', () => {
    const original = jpeg(640, 480, [
      exifSegment(6, 'SERIAL-12345'),
      jpegSegment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:gps>48.85</x:gps>', 'latin1')),
      jpegSegment(0xe2, Buffer.from('ICC_PROFILE\0\x01\x01profile', 'latin1')),
      jpegSegment(0xe2, Buffer.from('FPXR\0flashpix', 'latin1')),
      jpegSegment(0xed, Buffer.from('Photoshop 3.0\0IPTC caption', 'latin1')),
      jpegSegment(0xee, Buffer.from('Adobe\0d\0\0\0\0\x01', 'latin1')),
      jpegSegment(0xfe, Buffer.from('secret comment', 'latin1')),
    ]);
    const stripped = readImage(original)!.stripped();
    for (const gone of ['SERIAL-12345', '48.85', 'flashpix', 'IPTC caption', 'secret comment']) expect(text(stripped)).not.toContain(gone);
    for (const kept of ['JFIF', 'ICC_PROFILE', 'Adobe']) expect(text(stripped)).toContain(kept);
    expect(readImage(stripped)?.info).toEqual({ type: 'jpg', width: 640, height: 480 });
    // The scan data and the end marker are byte for byte the same.
    const scan = original.subarray(original.indexOf(Buffer.from([0xff, 0xda])));
    expect(stripped.subarray(stripped.length - scan.length)).toEqual(scan);
    // The picture still turns as the camera said: a new Exif holds the orientation alone.
    const exif = stripped.indexOf(Buffer.from('Exif\0\0', 'latin1'));
    expect(exif).toBeGreaterThan(0);
    const app1Length = stripped.readUInt16BE(exif - 2);
    expect(exifOrientation(stripped.subarray(exif, exif - 2 + app1Length))).toBe(6);
  });

  it('JPEG: an upright photo keeps no Exif at all', () => {
    const stripped = readImage(jpeg(10, 10, [exifSegment(1, 'SERIAL-1')]))!.stripped();
    expect(text(stripped)).not.toContain('Exif');
    expect(stripped).toEqual(jpeg(10, 10));
  });

  it('WebP: EXIF and XMP chunks go, their flags are cleared and the RIFF size matches', () => {
    const original = webpExtended(100, 50, 'GPS 48.85', '<x:creator>Jane</x:creator>');
    const stripped = readImage(original)!.stripped();
    expect(text(stripped)).not.toContain('48.85');
    expect(text(stripped)).not.toContain('Jane');
    expect(text(stripped)).toContain('ICCP');
    expect(stripped.readUInt32LE(4)).toBe(stripped.length - 8);
    const flags = stripped[20]!;
    expect(flags & 0x08).toBe(0);
    expect(flags & 0x04).toBe(0);
    expect(flags & 0x20).toBe(0x20);
    expect(readImage(stripped)?.info).toEqual({ type: 'webp', width: 100, height: 50 });
  });
});
