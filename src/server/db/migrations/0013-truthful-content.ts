import type { Kysely } from 'kysely';

/**
 * Demo content that was untrue, replaced where a shop still holds it word for word (what an owner
 * changed is theirs and stays): the seeded hero video (a well-known joke video on a third-party
 * site) is cleared, so the hero shows its picture; the shipping and tax FAQ answers, which
 * repeated numbers the shipping options and the tax rule own (and taxed the wrong base), become
 * placeholders filled in from them when read (src/shared/shop-facts.ts). See
 * docs/decisions/0013-truthful-content.md.
 */
export const SEEDED_HERO_VIDEO_URL = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';
export const SEEDED_SHIPPING_ANSWER =
  'Standard shipping is $5.99 (5-7 business days), Expedited is $12.99 (2-3 business days) and Overnight is $24.99 (next business day). Orders of $50 or more can choose Free Shipping, which takes 7-10 business days.';
export const SEEDED_TAX_ANSWER =
  'Yes. Sales tax of 8% is calculated on your order subtotal after any discounts and is shown at checkout before you pay.';
const SHIPPING_ANSWER = '{{shipping_rates}}';
const TAX_ANSWER = 'Yes. {{tax_rule}}';

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const at = new Date().toISOString();
  await db
    .updateTable('settings')
    .set({ value: '', updated_at: at })
    .where('key', '=', 'hero_video_url')
    .where('value', '=', SEEDED_HERO_VIDEO_URL)
    .execute();
  for (const [from, to] of [
    [SEEDED_SHIPPING_ANSWER, SHIPPING_ANSWER],
    [SEEDED_TAX_ANSWER, TAX_ANSWER],
  ] as const) {
    await db.updateTable('faqs').set({ answer: to, updated_at: at }).where('answer', '=', from).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [from, to] of [
    [SHIPPING_ANSWER, SEEDED_SHIPPING_ANSWER],
    [TAX_ANSWER, SEEDED_TAX_ANSWER],
  ] as const) {
    await db.updateTable('faqs').set({ answer: to }).where('answer', '=', from).execute();
  }
}
