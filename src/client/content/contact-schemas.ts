/**
 * The contact form's schema and texts, shared with the server. zod stays out of the storefront's
 * first load: the contact page is a lazy chunk loaded after zod (needsZod in shared/pages.ts);
 * zod-config must run before any schema is created.
 */
import '../lib/zod-config.js';
import { z } from 'zod';

export { CONTACT_MIN_FILL_MS, CONTACT_MISSING, CONTENT_MESSAGES, ContactInput } from '../../shared/schemas/content.js';

export const ContactResponse = z.object({ ok: z.literal(true) });
