import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 's3-server-child.mjs');

/**
 * An S3-compatible server of the test's own (s3rver in a child process, on a random port, its
 * objects in a temporary folder), and a plain AWS client to look into its bucket beside the app.
 * `stop()` makes the bucket unreachable; `start()` brings it back on the same port with the same objects.
 */
export class TestS3Server {
  readonly bucket = 'shop-test';
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-s3-'));
  port = 0;
  private child: ChildProcess | null = null;
  private client: S3Client | null = null;

  static async start(): Promise<TestS3Server> {
    const server = new TestS3Server();
    await server.start();
    return server;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The shop's settings for this bucket (FILE_STORE=s3 and the rest). */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      FILE_STORE: 's3',
      S3_BUCKET: this.bucket,
      S3_ENDPOINT: this.endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      ...extra,
    };
  }

  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn(process.execPath, ['--openssl-legacy-provider', CHILD, this.dir, String(this.port), this.bucket], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    this.port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const line = out.split('\n')[0];
        if (out.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
      });
      child.once('exit', (code) => reject(new Error(`the S3 test server exited (${code}): ${stderr}`)));
    });
  }

  /** Ends the server at once, as a crash would: the bucket no longer answers (connections are refused). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<void> {
    await this.stop();
    this.client?.destroy();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** A plain AWS client on the bucket, apart from the app's. */
  private s3(): S3Client {
    this.client ??= new S3Client({
      endpoint: this.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return this.client;
  }

  /** Every key in the bucket under `prefix`. */
  async keys(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.s3().send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  /** The object's size and type, or null when the bucket has none. */
  async head(key: string): Promise<{ size: number; type: string; etag: string } | null> {
    try {
      const res = await this.s3().send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, type: res.ContentType ?? '', etag: res.ETag ?? '' };
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  }

  async put(key: string, body: Buffer, type: string): Promise<void> {
    await this.s3().send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: type }));
  }

  async remove(key: string): Promise<void> {
    await this.s3().send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
