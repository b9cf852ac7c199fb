import { z } from 'zod';

// Our CSP forbids eval. Without this, zod probes `new Function` while building object schemas and
// the browser reports a CSP violation. Must run before any schema is created: import it first.
z.config({ jitless: true });
