import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadServerConfig } from '../config.js';
import { isFileKey, keyOfUploadUrl } from './file-store.js';

const error = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return null;
};

describe('FILE_STORE and the S3 settings', () => {
  it('keeps images in UPLOAD_DIR by default, as before', () => {
    expect(loadConfig({}).fileStore).toEqual({ kind: 'local', dir: 'data/uploads' });
    expect(loadConfig({ UPLOAD_DIR: '/srv/up' }).fileStore).toEqual({ kind: 'local', dir: '/srv/up' });
  });

  it('FILE_STORE=s3 without a bucket refuses to start, naming S3_BUCKET and what it is', () => {
    expect(error({ FILE_STORE: 's3' })).toContain('S3_BUCKET: must be set when FILE_STORE=s3');
    expect(() => loadServerConfig({ FILE_STORE: 's3', NODE_ENV: 'development' })).toThrow(/S3_BUCKET: must be set/);
    expect(error({ FILE_STORE: 's3', S3_BUCKET: 'Not_A_Bucket' })).toContain('S3_BUCKET: must be a bucket name');
    expect(error({ FILE_STORE: 'gcs' })).toContain("FILE_STORE: must be 'local'");
  });

  it('access keys come in pairs; the endpoint and the public address are URLs', () => {
    expect(error({ FILE_STORE: 's3', S3_BUCKET: 'shop', S3_ACCESS_KEY_ID: 'AKIA' })).toContain('S3_SECRET_ACCESS_KEY');
    expect(error({ FILE_STORE: 's3', S3_BUCKET: 'shop', S3_ENDPOINT: 'minio:9000' })).toContain('S3_ENDPOINT: must be an absolute URL');
    expect(error({ FILE_STORE: 's3', S3_BUCKET: 'shop', S3_FORCE_PATH_STYLE: 'yes' })).toContain('S3_FORCE_PATH_STYLE');
  });

  it('reads a bucket’s settings, trailing slashes off', () => {
    const config = loadConfig({
      FILE_STORE: 's3',
      S3_BUCKET: 'shop-images',
      S3_REGION: 'auto',
      S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com/',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PUBLIC_URL: 'https://images.example.com/',
    });
    expect(config.fileStore).toEqual({
      kind: 's3',
      bucket: 'shop-images',
      region: 'auto',
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      publicUrl: 'https://images.example.com',
    });
    expect(loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'shop' }).fileStore).toMatchObject({ region: 'us-east-1', forcePathStyle: false });
  });
});

describe('file keys', () => {
  it('takes the keys the shop writes and nothing that could leave the root', () => {
    for (const ok of ['products/lxk2-ab12.jpg', 'reviews/a-w320.webp', 'content/logo.svg', 'a']) expect(isFileKey(ok), ok).toBe(true);
    for (const bad of [
      '',
      '/products/a.jpg',
      'products/../a',
      '../a',
      'products/./a',
      'products//a',
      'products/a b.jpg',
      'products/.hidden',
      'a\0b',
    ])
      expect(isFileKey(bad), bad).toBe(false);
    expect(keyOfUploadUrl('/uploads/products/a.jpg')).toBe('products/a.jpg');
    expect(keyOfUploadUrl('/images/products/a.jpg')).toBeNull();
    expect(keyOfUploadUrl('/uploads/../secret')).toBeNull();
  });
});
