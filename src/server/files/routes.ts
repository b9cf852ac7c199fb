import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppDeps } from '../app.js';
import { declarePublicFiles } from '../http/access.js';
import { PRIVATE_DIR_MODE } from '../lib/private-files.js';
import { contentTypeOf, isFileKey, isFileStoreError } from './file-store.js';
import { LocalFileStore } from './local-store.js';
import { IMMUTABLE } from './s3-store.js';

/** What a shopper's browser gets when the bucket does not answer: the page around the image still loads. */
export const IMAGE_UNAVAILABLE = 'The image cannot be loaded right now.';

/** How long a browser may keep the redirect to S3_PUBLIC_URL (a changed address is followed within a day). */
const REDIRECT_CACHE = 'public, max-age=86400';

/**
 * Uploaded images, served to everyone at `/uploads/<key>` (pages surface); names are random and
 * never reused, so each is cached for a year. The uploads folder is served from disk as it always
 * was; a bucket's objects are read from the bucket on each request (a browser or CDN keeps them),
 * or, with S3_PUBLIC_URL, the browser is sent there (decision 0062). Nothing here remembers which
 * files exist: another process may have stored the file a moment ago.
 */
export async function registerUploadedFiles(app: FastifyInstance, { config, files }: Pick<AppDeps, 'config' | 'files'>): Promise<void> {
  await app.register(async (scope) => {
    declarePublicFiles(scope);
    if (files instanceof LocalFileStore) {
      fs.mkdirSync(files.root, { recursive: true, mode: PRIVATE_DIR_MODE });
      await scope.register(fastifyStatic, {
        root: files.root,
        prefix: '/uploads/',
        decorateReply: false,
        index: false,
        setHeaders: (res) => {
          res.header('Cache-Control', IMMUTABLE);
        },
      });
      return;
    }
    const publicUrl = config.fileStore.kind === 's3' ? config.fileStore.publicUrl : undefined;
    scope.get('/uploads/*', async (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      if (!isFileKey(key)) return reply.callNotFound();
      if (publicUrl) return reply.header('Cache-Control', REDIRECT_CACHE).redirect(`${publicUrl}/${key}`, 302);
      const ifNoneMatch = req.headers['if-none-match'];
      const since = req.headers['if-modified-since'] ? new Date(req.headers['if-modified-since']) : undefined;
      let file;
      try {
        file =
          req.method === 'HEAD'
            ? await files.head(key)
            : await files.get(key, { ifNoneMatch, ifModifiedSince: since && !Number.isNaN(since.getTime()) ? since : undefined });
      } catch (err) {
        if (!isFileStoreError(err)) throw err;
        req.log.warn({ err, reqId: req.id }, 'an image could not be read from the file store');
        return reply.code(502).header('Cache-Control', 'no-store').header('Retry-After', '60').send({ error: IMAGE_UNAVAILABLE });
      }
      if (!file) return reply.callNotFound();
      reply.header('Cache-Control', IMMUTABLE);
      if ('notModified' in file) {
        if (ifNoneMatch && !ifNoneMatch.includes(',')) reply.header('ETag', ifNoneMatch);
        return reply.code(304).send();
      }
      const known = contentTypeOf(key);
      reply
        .type(known !== 'application/octet-stream' ? known : file.contentType || known)
        .header('Content-Length', String(file.size))
        .header('Last-Modified', file.lastModified.toUTCString());
      if (file.etag) reply.header('ETag', file.etag);
      return reply.send('body' in file ? file.body : undefined);
    });
  });
}
