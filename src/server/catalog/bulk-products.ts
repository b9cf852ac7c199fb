import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../lib/ids.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import type { z } from 'zod';
import { BULK_MESSAGES, type BulkOutcome, type BulkProductInput } from '../../shared/schemas/bulk.js';
import { deleteProduct } from './admin-catalog.js';

type Log = { error: (o: object, msg: string) => void };
type Parsed = z.output<typeof BulkProductInput>;

/**
 * The Products tab's bulk actions, each product reported on its own. A category or featured change
 * writes only the products it changes (one statement); a product already so is skipped. Delete goes
 * through the single delete, product by product, so it keeps whatever rule that delete keeps.
 */
export async function bulkProducts(db: Kysely<Database>, input: Parsed, log: Log): Promise<BulkOutcome[]> {
  const rows = await db.selectFrom('products').select(['id', 'name', 'category_id', 'featured']).where('id', 'in', input.ids).execute();
  const found = new Map(rows.map((r) => [r.id, r]));
  const missing = (id: string): BulkOutcome => ({ id, label: null, result: 'not_found', message: BULK_MESSAGES.productNotFound });

  if (input.action === 'delete') {
    const results: BulkOutcome[] = [];
    for (const id of input.ids) {
      const p = found.get(id);
      if (!p) {
        results.push(missing(id));
        continue;
      }
      try {
        await deleteProduct(db, id);
        results.push({ id, label: p.name, result: 'changed', message: null });
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 404) results.push(missing(id));
        else if (err instanceof HttpError && err.statusCode < 500)
          results.push({ id, label: p.name, result: 'skipped', message: err.message });
        else {
          log.error({ err, productId: id }, 'a bulk product delete failed');
          results.push({ id, label: p.name, result: 'skipped', message: BULK_MESSAGES.unexpected });
        }
      }
    }
    return results;
  }

  if (input.action === 'category' && input.categoryId) {
    const c = await db.selectFrom('categories').select('id').where('id', '=', input.categoryId).executeTakeFirst();
    if (!c) throw new HttpError(400, ADMIN_MESSAGES.categoryNotFound);
  }
  const wanted = input.action === 'category' ? { category_id: input.categoryId } : { featured: input.featured ? 1 : 0 };
  const same = (p: (typeof rows)[number]) =>
    input.action === 'category' ? (p.category_id ?? null) === input.categoryId : Boolean(p.featured) === input.featured;
  const toChange = rows.filter((p) => !same(p)).map((p) => p.id);
  if (toChange.length) {
    await db
      .updateTable('products')
      .set({ ...wanted, updated_at: nowIso() })
      .where('id', 'in', toChange)
      .execute();
  }
  const skipped = input.action === 'category' ? BULK_MESSAGES.alreadyCategory : BULK_MESSAGES.alreadyFeatured(input.featured);
  return input.ids.map((id): BulkOutcome => {
    const p = found.get(id);
    if (!p) return missing(id);
    return same(p) ? { id, label: p.name, result: 'skipped', message: skipped } : { id, label: p.name, result: 'changed', message: null };
  });
}
