import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { queueEmail } from '../email/outbox.js';
import type { LockedStock } from './stock.js';
import { notifyBackInStock } from './back-in-stock.js';
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

/** The shop's address, for links in e-mails: set once by the app at start. */
let shopUrl = 'http://localhost:3000';
export function setInventoryShopUrl(url: string): void {
  shopUrl = url.replace(/\/+$/, '');
}
export function productUrl(productId: string): string {
  return `${shopUrl}/products/${encodeURIComponent(productId)}`;
}
/** The Products tab filtered to the products in that state (the one e-mailed about among them). */
function adminStockUrl(state: 'low' | 'out'): string {
  return `${shopUrl}/admin?tab=products&stock=${state}`;
}

async function contactAddress(trx: Kysely<Database>): Promise<string | null> {
  const row = await trx.selectFrom('settings').select('value').where('key', '=', 'contact_email').executeTakeFirst();
  const email = row?.value?.trim();
  return email ? email : null;
}

/** Called by recordMovement after every level change, with the item locked. */
export async function afterLevelChange(trx: Kysely<Database>, stock: LockedStock, before: number, at: Date): Promise<void> {
  const after = stock.onHand;
  const state = after <= 0 ? 'out' : after <= stock.threshold ? 'low' : 'ok';
  const rank = { ok: 0, low: 1, out: 2 } as const;
  if (state !== stock.alertState) {
    const worse = rank[state] > rank[stock.alertState];
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
            productAdminUrl: adminStockUrl(state === 'out' ? 'out' : 'low'),
          },
        });
      }
    }
  }
  if (before <= 0 && after > 0) await notifyBackInStock(trx, stock, at);
}
