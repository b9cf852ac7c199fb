import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { newId, nowIso } from '../lib/ids.js';
import { CONTENT_MESSAGES, toEmbedVideoUrl } from '../../shared/schemas/content.js';
import { auditSettingsChange, type AuditBy } from '../audit/audit.js';

const SECRET_SETTING_KEYS = ['shipstation_api_key', 'shipstation_api_secret'] as const;
const MASK_PREFIX = '••••';

/** Secrets leave the server only as their last four characters (none of a short one). */
function maskSecret(value: string): string {
  if (!value) return '';
  return value.length >= 8 ? `${MASK_PREFIX}${value.slice(-4)}` : MASK_PREFIX;
}

export async function readSettings(db: Kysely<Database>, keys?: readonly string[]): Promise<Record<string, string>> {
  let q = db.selectFrom('settings').select(['key', 'value']);
  if (keys) q = q.where('key', 'in', keys.length ? [...keys] : ['']);
  const rows = await q.execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function adminSettingsView(db: Kysely<Database>): Promise<Record<string, string>> {
  const all = await readSettings(db);
  for (const k of SECRET_SETTING_KEYS) if (k in all) all[k] = maskSecret(all[k]!);
  return all;
}

/** Writes the given keys (insert or update); `undefined` values are left as they are. */
export async function writeSettings(
  db: Kysely<Database>,
  values: Record<string, string | boolean | undefined>,
  by?: AuditBy,
): Promise<void> {
  const at = nowIso();
  await db.transaction().execute(async (trx) => {
    if (by) await auditSettingsChange(trx, by, values); // which keys changed, never their values (audit/audit.ts)
    for (const [key, raw] of Object.entries(values)) {
      if (raw === undefined) continue;
      const value = typeof raw === 'boolean' ? String(raw) : raw;
      await trx
        .insertInto('settings')
        .values({ key, value, description: null, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: at }))
        .execute();
    }
  });
}

/**
 * Saves the integration settings. The browser never holds a stored secret, so a secret field
 * that is omitted, empty or still the masked hint keeps the stored value; `null` removes it.
 */
export async function saveIntegrationSettings(
  db: Kysely<Database>,
  input: Record<string, string | boolean | null | undefined>,
  by?: AuditBy,
): Promise<void> {
  const values: Record<string, string | boolean | undefined> = {};
  for (const [key, value] of Object.entries(input)) {
    if ((SECRET_SETTING_KEYS as readonly string[]).includes(key)) {
      if (value === null) values[key] = '';
      else if (typeof value === 'string' && value !== '' && !value.startsWith(MASK_PREFIX)) values[key] = value;
    } else if (value !== null) values[key] = value;
  }
  await writeSettings(db, values, by);
}

export async function saveHomepageContent(db: Kysely<Database>, input: Record<string, string | undefined>, by?: AuditBy): Promise<void> {
  await writeSettings(
    db,
    {
      ...input,
      ...(input.hero_video_url !== undefined ? { hero_video_url: toEmbedVideoUrl(input.hero_video_url) } : {}),
    },
    by,
  );
}

export async function createFaq(db: Kysely<Database>, input: { question: string; answer: string; category: string | null }) {
  const at = nowIso();
  const id = `faq-${Date.now()}`;
  const max = await db
    .selectFrom('faqs')
    .select((eb) => eb.fn.max('sort_order').as('m'))
    .executeTakeFirst();
  const finalId = (await db.selectFrom('faqs').select('id').where('id', '=', id).executeTakeFirst()) ? newId('faq') : id;
  await db
    .insertInto('faqs')
    .values({ id: finalId, ...input, sort_order: Number(max?.m ?? 0) + 1, created_at: at, updated_at: at })
    .execute();
  return { id: finalId, ...input };
}

export async function updateFaq(db: Kysely<Database>, id: string, input: { question: string; answer: string; category: string | null }) {
  const r = await db
    .updateTable('faqs')
    .set({ ...input, updated_at: nowIso() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, CONTENT_MESSAGES.faqNotFound);
  return { id, ...input };
}

export async function deleteFaq(db: Kysely<Database>, id: string): Promise<void> {
  const r = await db.deleteFrom('faqs').where('id', '=', id).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) throw new HttpError(404, CONTENT_MESSAGES.faqNotFound);
}
