import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { queueEmail } from '../email/outbox.js';
import { shopAddressFor } from '../email/shop-notifications.js';
import type { LockedStock } from './stock.js';
import { notifyBackInStock } from './back-in-stock.js';
import { ALERT_RANK, alertStateOf } from './low-stock.js';
import { adminStockUrl } from './shop-links.js';
import { lineTitle, variantLabel } from '../../shared/variants.js';

/*
 * What the owner and waiting shoppers hear when a level moves (decision 0022), queued in the same
 * transaction as the ledger row, so an e-mail exists exactly when the change that caused it does:
 * - the shop's contact address gets one e-mail when a variant falls to its low-stock threshold
 *   or below (`stock-low`), and one when it sells out (`stock-sold-out`), naming the line's title
 *   and the variant's SKU: one per crossing, not per sale (the item's `alert_state` remembers
 *   where the level stood; rising above the threshold again re-arms it);
 * - shoppers who asked to hear when a sold-out product is back get one e-mail each when its level
 *   rises from zero (back-in-stock.ts).
 */

/** The shop's notices address (else the contact address), or null when stock e-mails are switched off (email/shop-notifications.ts). */
const contactAddress = (trx: Kysely<Database>): Promise<string | null> => shopAddressFor(trx, 'stock');

/** Called by recordMovement after every level change, with the item locked. */
export async function afterLevelChange(trx: Kysely<Database>, stock: LockedStock, before: number, at: Date): Promise<void> {
  const after = stock.onHand;
  const state = alertStateOf(after, stock.threshold);
  if (state !== stock.alertState) {
    const worse = ALERT_RANK[state] > ALERT_RANK[stock.alertState];
    await trx.updateTable('stock_items').set({ alert_state: state }).where('id', '=', stock.itemId).execute();
    stock.alertState = state;
    if (worse) {
      const to = await contactAddress(trx);
      // The line's title ("Cleaner — Lavender, 1 L") and the variant's own SKU: the owner knows which shelf.
      const variant = to
        ? await trx
            .selectFrom('product_variants as v')
            .innerJoin('products as p', 'p.id', 'v.product_id')
            .select(['p.name', 'v.sku', 'v.option1', 'v.option2', 'v.option3'])
            .where('v.id', '=', stock.variantId)
            .executeTakeFirst()
        : undefined;
      if (to && variant) {
        await queueEmail(trx, {
          to,
          templateId: state === 'out' ? 'stock-sold-out' : 'stock-low',
          variables: {
            productName: lineTitle(variant.name, variantLabel([variant.option1, variant.option2, variant.option3])),
            sku: variant.sku ?? '',
            onHand: after,
            threshold: stock.threshold,
            productAdminUrl: adminStockUrl(trx, state === 'out' ? 'out' : 'low'),
          },
        });
      }
    }
  }
  if (before <= 0 && after > 0) await notifyBackInStock(trx, stock, at);
}
