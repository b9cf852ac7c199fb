/**
 * The contact form's schema and texts, shared with the server. Loaded lazily by the form so zod
 * stays out of the storefront's first load; zod-config must run before any schema is created.
 */
import '../lib/zod-config.js';
import { z } from 'zod';

export { CONTACT_MIN_FILL_MS, CONTENT_MESSAGES, ContactInput } from '../../shared/schemas/content.js';

export const ContactResponse = z.object({ ok: z.literal(true) });
