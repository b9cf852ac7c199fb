import { beforeAll } from 'vitest';
import { clearAllCaches } from '../http/micro-cache.js';

/*
 * The HTTP files of one worker share its modules (vitest.config.ts, `isolate: false`). The shop's
 * in-process caches (http/micro-cache.ts) are keyed as in one shop, which is right for a process
 * serving one database; a file starts without what the previous file's shop left in them.
 */
beforeAll(() => clearAllCaches());
