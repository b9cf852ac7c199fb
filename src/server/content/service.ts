import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { PUBLIC_SETTING_KEYS, type Faq } from '../../shared/schemas/catalog.js';

export async function getPublicSettings(db: Kysely<Database>): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', [...PUBLIC_SETTING_KEYS])
    .execute();
  const out: Record<string, string> = {};
  for (const key of PUBLIC_SETTING_KEYS) out[key] = '';
  for (const r of rows) out[r.key] = r.value;
  return out;
}

export async function listFaqs(db: Kysely<Database>): Promise<Faq[]> {
  const rows = await db.selectFrom('faqs').selectAll().orderBy('sort_order').orderBy('created_at').execute();
  return rows.map((r) => ({ id: r.id, question: r.question, answer: r.answer, category: r.category }));
}
