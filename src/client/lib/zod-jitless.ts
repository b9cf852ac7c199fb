/**
 * What `import … from 'zod'` means in the browser's bundle (vite.config.ts aliases it here): zod
 * itself, told never to probe `new Function` (our CSP forbids eval, and the probe, made while an
 * object schema is built, is reported as a violation). Being the module every import of zod goes
 * through, this runs before any schema is built, whichever page's chunk builds one first.
 */
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
