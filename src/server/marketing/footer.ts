import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { readSettings } from '../content/admin.js';
import { marketingUnsubscribeToken, unsubscribeApiUrl, unsubscribePageUrl } from './unsubscribe.js';

/** The shop's postal address for offers and reminders (Settings → General). */
export const POSTAL_ADDRESS_KEY = 'shop_postal_address';
const RETURN_ADDRESS_KEY = 'shop_return_address';

/**
 * Where the shop can be reached by post, as every marketing e-mail must show (CAN-SPAM): the postal
 * address the owner set, else the packing slips' return address; '' when neither is set (then no
 * offer or reminder is sent: marketing/recovery.ts).
 */
export async function shopPostalAddress(db: Kysely<Database>): Promise<string> {
  const s = await readSettings(db, [POSTAL_ADDRESS_KEY, RETURN_ADDRESS_KEY]);
  const lines = (s[POSTAL_ADDRESS_KEY]?.trim() || s[RETURN_ADDRESS_KEY]?.trim() || '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.join(', ');
}

/**
 * What every marketing e-mail carries (issue [7/8] item 2): the visible unsubscribe link and the
 * postal address as template variables, and the one-click address for the `List-Unsubscribe` and
 * `List-Unsubscribe-Post` headers. Null when the address never consented or the shop has no postal
 * address: such an e-mail must not be sent.
 */
export async function marketingFooter(
  db: Kysely<Database>,
  publicUrl: string,
  email: string,
): Promise<{ variables: { unsubscribeUrl: string; shopAddress: string }; listUnsubscribe: string } | null> {
  const [token, shopAddress] = await Promise.all([marketingUnsubscribeToken(db, email), shopPostalAddress(db)]);
  if (!token || !shopAddress) return null;
  return {
    variables: { unsubscribeUrl: unsubscribePageUrl(publicUrl, token), shopAddress },
    listUnsubscribe: unsubscribeApiUrl(publicUrl, token),
  };
}
