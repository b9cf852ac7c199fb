import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { parseJson } from '../lib/json.js';

/*
 * Whether an order's bought label can be printed, as the order's view shows it (service.ts). The
 * label service (shipping-labels/service.ts) writes the files and reads ShipStation's old address here.
 */

/** Whether the order's bought label can be printed from the shop (its file, or ShipStation's download address). */
export async function hasLabelFile(db: Kysely<Database>, orderId: string, shipstationData: string | null): Promise<boolean> {
  const file = await db
    .selectFrom('shipping_label_files')
    .select(['content_base64', 'download_url'])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return Boolean(file?.content_base64 || file?.download_url || legacyDownloadUrl(shipstationData));
}

/** v2's download address as ShipStation answered it, for labels bought before the shop kept their files. */
export function legacyDownloadUrl(shipstationData: string | null): string | null {
  const data = parseJson<{ version?: string; label?: { label_download?: { pdf?: unknown; href?: unknown } } }>(shipstationData, {});
  const d = data.version === 'v2' ? data.label?.label_download : undefined;
  return [d?.pdf, d?.href].find((u): u is string => typeof u === 'string' && /^https?:\/\//.test(u)) ?? null;
}
