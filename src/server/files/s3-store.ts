import type { Readable } from 'node:stream';
import type * as Sdk from '@aws-sdk/client-s3';
import type { FileStoreConfig } from '../config.js';
import {
  contentTypeOf,
  FileStoreError,
  isFileKey,
  type FileBody,
  type FileInfo,
  type FileStore,
  type GetConditions,
  type NotModified,
} from './file-store.js';

/** A bucket's settings (config.ts reads them from the environment); where browsers may fetch objects is the routes' business. */
export type S3Settings = Omit<Extract<FileStoreConfig, { kind: 's3' }>, 'kind' | 'publicUrl'>;

/** How long the shop waits for the service: to connect, and for an answer to go on arriving. */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 20_000;

/** The year-long cache every stored image is served with (names are never reused). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Answers that mean the service is there and says no: the owner's settings, not a passing fault. */
const REFUSALS = new Set([
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'NoSuchBucket',
  'PermanentRedirect',
  'AuthorizationHeaderMalformed',
  'InvalidBucketName',
  'AllAccessDisabled',
  'AccountProblem',
  'InvalidToken',
  'ExpiredToken',
]);

/**
 * AWS's client is loaded the first time the bucket is used, not when the shop starts: a shop on its
 * uploads folder (the default) never loads it, and it adds some megabytes of code to a process.
 */
let loaded: Promise<typeof Sdk> | undefined;
const loadSdk = () => (loaded ??= import('@aws-sdk/client-s3'));

type SdkError = { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
const statusOf = (err: unknown) => (err as SdkError | null)?.$metadata?.httpStatusCode;
const nameOf = (err: unknown) => (err as SdkError | null)?.Code ?? (err as SdkError | null)?.name ?? '';

/**
 * Uploaded images in a bucket of any S3-compatible service, through AWS's own client. Checksums are
 * computed and checked only where an operation requires them: the SDK's newer default (a CRC on
 * every upload) is refused by several services that are not AWS (R2, B2, MinIO versions).
 */
export class S3FileStore implements FileStore {
  readonly description: string;
  private readonly bucket: string;
  private readonly config: Sdk.S3ClientConfig;
  private client: Promise<{ sdk: typeof Sdk; client: Sdk.S3Client }> | null = null;
  private made: Sdk.S3Client | null = null;

  constructor(
    settings: S3Settings,
    private readonly options: { pageSize?: number; maxAttempts?: number } = {},
  ) {
    this.bucket = settings.bucket;
    this.description = `bucket ${settings.bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ` (AWS S3, ${settings.region})`}`;
    this.config = {
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: options.maxAttempts ?? 3,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    };
  }

  /** The SDK and one client for the store's life (its kept-alive connections are reused). */
  private sdk(): Promise<{ sdk: typeof Sdk; client: Sdk.S3Client }> {
    this.client ??= loadSdk().then((sdk) => {
      this.made = new sdk.S3Client(this.config);
      return { sdk, client: this.made };
    });
    return this.client;
  }

  /** A fault of the service as the shop reports it: refused (settings) or unreachable (anything else). */
  private fault(what: string, key: string, err: unknown): FileStoreError {
    const status = statusOf(err);
    const name = nameOf(err);
    const refused = REFUSALS.has(name) || status === 401 || status === 403;
    const why = status ? `${status} ${name}`.trim() : err instanceof Error ? err.message : String(err);
    return new FileStoreError(refused ? 'refused' : 'unreachable', `${what} ${key} in ${this.description} failed: ${why}`, { cause: err });
  }

  private isMissing(err: unknown): boolean {
    return statusOf(err) === 404 && nameOf(err) !== 'NoSuchBucket';
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    if (!isFileKey(key)) throw new Error(`Not a file key: ${JSON.stringify(key)}`);
    const { sdk, client } = await this.sdk();
    try {
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentLength: body.length,
          ContentType: contentType,
          // What a public bucket (or a CDN in front of it) sends, as the shop does.
          CacheControl: IMMUTABLE,
        }),
      );
    } catch (err) {
      throw this.fault('storing', key, err);
    }
  }

  async head(key: string): Promise<FileInfo | null> {
    if (!isFileKey(key)) return null;
    const { sdk, client } = await this.sdk();
    try {
      const res = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: res.ContentLength ?? 0,
        etag: res.ETag ?? '',
        lastModified: res.LastModified ?? new Date(0),
        contentType: res.ContentType ?? '',
      };
    } catch (err) {
      if (this.isMissing(err)) return null;
      throw this.fault('looking up', key, err);
    }
  }

  async get(key: string, conditions: GetConditions = {}): Promise<FileBody | NotModified | null> {
    if (!isFileKey(key)) return null;
    const { sdk, client } = await this.sdk();
    try {
      const res = await client.send(
        new sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          IfNoneMatch: conditions.ifNoneMatch,
          IfModifiedSince: conditions.ifNoneMatch === undefined ? conditions.ifModifiedSince : undefined,
        }),
      );
      if (!res.Body) throw new Error('the answer has no body');
      return {
        key,
        size: res.ContentLength ?? 0,
        etag: res.ETag ?? '',
        lastModified: res.LastModified ?? new Date(0),
        contentType: res.ContentType ?? contentTypeOf(key),
        body: res.Body as Readable,
      };
    } catch (err) {
      if (statusOf(err) === 304)
        return { notModified: true, etag: conditions.ifNoneMatch ?? '', lastModified: conditions.ifModifiedSince ?? new Date(0) };
      if (this.isMissing(err)) return null;
      throw this.fault('reading', key, err);
    }
  }

  async delete(key: string): Promise<void> {
    if (!isFileKey(key)) return;
    const { sdk, client } = await this.sdk();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (this.isMissing(err)) return;
      throw this.fault('removing', key, err);
    }
  }

  async *list(prefix: string): AsyncIterable<FileInfo> {
    const { sdk, client } = await this.sdk();
    let token: string | undefined;
    do {
      let page;
      try {
        page = await client.send(
          new sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            ContinuationToken: token,
            MaxKeys: this.options.pageSize ?? 1000,
          }),
        );
      } catch (err) {
        throw this.fault('listing', prefix ? `the keys under ${prefix}` : 'every key', err);
      }
      for (const o of page.Contents ?? []) {
        if (!o.Key || !isFileKey(o.Key)) continue;
        yield { key: o.Key, size: o.Size ?? 0, etag: o.ETag ?? '', lastModified: o.LastModified ?? new Date(0), contentType: '' };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's kept-alive connections (scripts, tests). */
  close(): void {
    this.made?.destroy();
  }
}
