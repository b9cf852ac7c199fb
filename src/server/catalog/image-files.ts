/**
 * What an uploaded image is, read from its own bytes: its type, its pixel dimensions (a 400 KB
 * PNG can declare 20,000 × 20,000 pixels and hang the browser that draws it), and the same file
 * without the metadata a camera or an editor puts in (GPS position, camera serial, author, edit
 * history, comments). Only the headers are read; nothing is decoded.
 *
 * Kept: what changes how the picture looks (colour profiles, the JPEG orientation, transparency,
 * animation). Dropped: PNG chunks outside an allow-list (text, EXIF, time, private ones); JPEG APP1
 * (Exif, XMP) but its orientation, APP2 but an ICC profile, APP3–APP13, APP14 but Adobe's colour
 * transform, APP15, comments, and anything after the image's end marker (a motion photo's video,
 * a phone maker's trailer); WebP EXIF and XMP.
 */

export type ImageType = 'png' | 'jpg' | 'webp';
export type ImageInfo = { type: ImageType; width: number; height: number };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The image type by its first bytes, whatever the file name or declared type claims. */
export function sniffImageType(buf: Buffer): ImageType | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  if (buf.length >= 12 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** A file of a known type whose structure does not hold together (cut short, lengths past its end). */
export class MalformedImageError extends Error {}

function malformed(what: string): never {
  throw new MalformedImageError(what);
}

// ---- PNG: signature, then chunks (length, type, data, CRC); IHDR first, IEND last ----

/**
 * Chunks kept (decision 0041): the picture (IHDR, PLTE, IDAT, IEND), how it looks (transparency,
 * gamma, chromaticities, sRGB, ICC profile, significant bits, background, pixel size, the HDR
 * colour chunks) and animation (APNG's acTL, fcTL, fdAT). Anything else (text, EXIF, time, and any
 * private or unknown chunk that could carry data) is dropped: a list of what to drop misses the
 * chunk nobody thought of.
 */
const PNG_KEPT = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'bKGD',
  'pHYs',
  'cICP',
  'mDCv',
  'cLLi',
  'acTL',
  'fcTL',
  'fdAT',
]);

type PngChunk = { type: string; start: number; end: number };

function pngChunks(buf: Buffer): PngChunk[] {
  const chunks: PngChunk[] = [];
  let at = 8;
  for (;;) {
    if (at + 12 > buf.length) malformed('PNG ends before its IEND chunk');
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > buf.length) malformed(`PNG chunk ${type} runs past the end of the file`);
    if (!/^[A-Za-z]{4}$/.test(type)) malformed('PNG chunk with an invalid type');
    chunks.push({ type, start: at, end });
    at = end;
    if (type === 'IEND') return chunks;
  }
}

function pngInfo(buf: Buffer): { info: ImageInfo; chunks: PngChunk[] } {
  const chunks = pngChunks(buf);
  const ihdr = chunks[0];
  if (!ihdr || ihdr.type !== 'IHDR' || ihdr.end - ihdr.start !== 25) malformed('PNG does not start with its IHDR chunk');
  const width = buf.readUInt32BE(ihdr.start + 8);
  const height = buf.readUInt32BE(ihdr.start + 12);
  return { info: { type: 'png', width, height }, chunks };
}

function stripPng(buf: Buffer, chunks: PngChunk[]): Buffer {
  // Anything after IEND is dropped too (data smuggled behind the picture).
  return Buffer.concat([PNG_SIGNATURE, ...chunks.filter((c) => PNG_KEPT.has(c.type)).map((c) => buf.subarray(c.start, c.end))]);
}

// ---- JPEG: SOI, then marker segments (FF xx, 2-byte length); SOF gives the size; SOS starts the scan data ----

type JpegSegment = { marker: number; start: number; end: number };

/** Markers that stand alone, without a length: TEM and RST0–7 (SOI and EOI are handled apart). */
const standalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7);
/** Start-of-frame markers: baseline, progressive, lossless, arithmetic (not DHT C4, JPG C8, DAC CC). */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpegSegments(buf: Buffer): { segments: JpegSegment[]; scanStart: number } {
  const segments: JpegSegment[] = [];
  let at = 2;
  for (;;) {
    if (at >= buf.length) malformed('JPEG ends before its image data');
    if (buf[at] !== 0xff) malformed('JPEG segment without a marker');
    // Fill bytes: any number of FF before the marker.
    let m = at + 1;
    while (m < buf.length && buf[m] === 0xff) m++;
    if (m >= buf.length) malformed('JPEG ends inside a marker');
    const marker = buf[m]!;
    if (standalone(marker)) {
      at = m + 1;
      continue;
    }
    if (marker === 0xd9 || marker === 0xd8 || marker === 0x00) malformed('JPEG without image data');
    if (m + 3 > buf.length) malformed('JPEG ends inside a segment header');
    const length = buf.readUInt16BE(m + 1);
    const end = m + 1 + length;
    if (length < 2 || end > buf.length) malformed('JPEG segment runs past the end of the file');
    segments.push({ marker, start: m + 1, end });
    // The scan's entropy-coded data (and whatever follows it) is copied as it is.
    if (marker === 0xda) return { segments, scanStart: m - 1 };
    at = end;
  }
}

/**
 * Where the image ends: just after the EOI marker that closes its last scan. Found by walking the
 * scans, not by looking for FF D9: in entropy-coded data every FF is followed by 00 or a restart
 * marker, so the first other marker there is real; segments between scans (a progressive JPEG's
 * tables and next SOS) are skipped by their length. An FF D9 inside an Exif thumbnail is never
 * looked at (its segment was skipped whole before the first scan), and whatever a phone appends
 * after the real EOI (a motion photo's video, a maker's trailer) is past the end. A file cut before
 * its EOI ends where it ends.
 */
function jpegEnd(buf: Buffer, firstScanEnd: number): number {
  let at = firstScanEnd;
  while (at + 1 < buf.length) {
    if (buf[at] !== 0xff) {
      at++;
      continue;
    }
    const next = buf[at + 1]!;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      at += next === 0xff ? 1 : 2;
      continue;
    }
    if (next === 0xd9) return at + 2;
    // A marker segment between scans: skip it by its length, then scan again.
    if (at + 4 > buf.length) break;
    const end = at + 2 + buf.readUInt16BE(at + 2);
    if (end > buf.length) break;
    at = end;
  }
  return buf.length;
}

function jpegInfo(buf: Buffer): { info: ImageInfo; segments: JpegSegment[]; scanStart: number } {
  const { segments, scanStart } = jpegSegments(buf);
  const sof = segments.find((s) => isSof(s.marker));
  if (!sof || sof.end - sof.start < 8) malformed('JPEG without a frame header');
  // Length (2), precision (1), height (2), width (2).
  const height = buf.readUInt16BE(sof.start + 3);
  const width = buf.readUInt16BE(sof.start + 5);
  return { info: { type: 'jpg', width, height }, segments, scanStart };
}

/** The EXIF orientation (1–8) in an APP1 Exif segment's data, or null. */
export function exifOrientation(exif: Buffer): number | null {
  if (exif.length < 14 || exif.toString('latin1', 0, 6) !== 'Exif\0\0') return null;
  const tiff = exif.subarray(6);
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const u16 = (o: number) => (o + 2 <= tiff.length ? (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o)) : null);
  const u32 = (o: number) => (o + 4 <= tiff.length ? (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o)) : null);
  const ifd = u32(4);
  if (ifd === null) return null;
  const count = u16(ifd);
  if (count === null) return null;
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value !== null && value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** An APP1 segment (marker included) holding only an Exif orientation: the one tag that changes how the picture looks. */
function orientationSegment(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // one value
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  const data = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

function keepJpegSegment(buf: Buffer, s: JpegSegment): boolean {
  const m = s.marker;
  const data = buf.subarray(s.start + 2, s.end);
  if (m === 0xfe) return false; // COM
  if (m < 0xe0 || m > 0xef) return true; // not an APPn: tables, frame header
  if (m === 0xe0) return true; // APP0: JFIF
  if (m === 0xe2) return data.toString('latin1', 0, 12) === 'ICC_PROFILE\0';
  if (m === 0xee) return data.toString('latin1', 0, 5) === 'Adobe';
  return false;
}

function stripJpeg(buf: Buffer, segments: JpegSegment[], scanStart: number): Buffer {
  const parts: Buffer[] = [buf.subarray(0, 2)];
  let orientation: number | null = null;
  for (const s of segments) {
    if (s.marker === 0xe1 && orientation === null) orientation = exifOrientation(buf.subarray(s.start + 2, s.end));
    if (s.marker === 0xda) break;
    if (keepJpegSegment(buf, s)) parts.push(buf.subarray(s.start - 2, s.end));
  }
  // The orientation goes right after SOI and APP0 (where Exif belongs), only when it turns the picture.
  if (orientation !== null && orientation !== 1) {
    const afterApp0 = parts.length > 1 && parts[1]![1] === 0xe0 ? 2 : 1;
    parts.splice(afterApp0, 0, orientationSegment(orientation));
  }
  const sos = segments[segments.length - 1]!;
  parts.push(buf.subarray(scanStart, jpegEnd(buf, sos.end)));
  return Buffer.concat(parts);
}

// ---- WebP: RIFF container of chunks (FourCC, LE size, data, padded to even) ----

type WebpChunk = { fourcc: string; start: number; dataStart: number; size: number; end: number };

function webpChunks(buf: Buffer): WebpChunk[] {
  const riffEnd = 8 + buf.readUInt32LE(4);
  if (riffEnd > buf.length || riffEnd < 12) malformed('WebP size runs past the end of the file');
  const chunks: WebpChunk[] = [];
  let at = 12;
  while (at < riffEnd) {
    if (at + 8 > riffEnd) malformed('WebP ends inside a chunk header');
    const fourcc = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const dataStart = at + 8;
    const end = dataStart + size + (size % 2);
    if (dataStart + size > riffEnd) malformed(`WebP chunk ${fourcc} runs past the end of the file`);
    chunks.push({ fourcc, start: at, dataStart, size, end: Math.min(end, riffEnd) });
    at = end;
  }
  if (!chunks.length) malformed('WebP without chunks');
  return chunks;
}

function webpInfo(buf: Buffer): { info: ImageInfo; chunks: WebpChunk[] } {
  const chunks = webpChunks(buf);
  const first = chunks[0]!;
  const d = first.dataStart;
  let width: number;
  let height: number;
  if (first.fourcc === 'VP8X') {
    if (first.size < 10) malformed('WebP VP8X chunk too short');
    width = 1 + buf.readUIntLE(d + 4, 3);
    height = 1 + buf.readUIntLE(d + 7, 3);
  } else if (first.fourcc === 'VP8 ') {
    // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height (2 scale bits each).
    if (first.size < 10 || buf[d + 3] !== 0x9d || buf[d + 4] !== 0x01 || buf[d + 5] !== 0x2a) malformed('WebP VP8 frame header missing');
    width = buf.readUInt16LE(d + 6) & 0x3fff;
    height = buf.readUInt16LE(d + 8) & 0x3fff;
  } else if (first.fourcc === 'VP8L') {
    // Signature 0x2F, then width−1 and height−1 in 14 bits each, least significant bit first.
    if (first.size < 5 || buf[d] !== 0x2f) malformed('WebP VP8L header missing');
    const bits = buf.readUInt32LE(d + 1);
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
  } else {
    malformed('WebP without an image chunk first');
  }
  return { info: { type: 'webp', width, height }, chunks };
}

const WEBP_EXIF_FLAG = 0x08;
const WEBP_XMP_FLAG = 0x04;

function stripWebp(buf: Buffer, chunks: WebpChunk[]): Buffer {
  const kept = chunks
    .filter((c) => c.fourcc !== 'EXIF' && c.fourcc !== 'XMP ')
    .map((c) => {
      const chunk = Buffer.from(buf.subarray(c.start, c.end));
      // The extended header says which metadata chunks follow: they no longer do.
      if (c.fourcc === 'VP8X') chunk[8] = chunk[8]! & ~(WEBP_EXIF_FLAG | WEBP_XMP_FLAG);
      // A last chunk of odd size may have lost its padding byte: put it back.
      return chunk.length % 2 ? Buffer.concat([chunk, Buffer.alloc(1)]) : chunk;
    });
  const body = Buffer.concat(kept);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}

/**
 * The image's type and pixel dimensions, and the file without its metadata. Null when the bytes are
 * not PNG, JPEG or WebP; MalformedImageError when they claim to be but do not hold together.
 */
export function readImage(buf: Buffer): { info: ImageInfo; stripped: () => Buffer } | null {
  const type = sniffImageType(buf);
  if (type === 'png') {
    const { info, chunks } = pngInfo(buf);
    return { info, stripped: () => stripPng(buf, chunks) };
  }
  if (type === 'jpg') {
    const { info, segments, scanStart } = jpegInfo(buf);
    return { info, stripped: () => stripJpeg(buf, segments, scanStart) };
  }
  if (type === 'webp') {
    const { info, chunks } = webpInfo(buf);
    return { info, stripped: () => stripWebp(buf, chunks) };
  }
  return null;
}
