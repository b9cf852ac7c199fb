import type { Kysely } from 'kysely';

/**
 * Issue [2/8] (decision 0044): the welcome e-mail's loyalty sentence said "$50.00 or more" without
 * saying of what, and the seeded FAQ promised a tracking number to every order, also one shipped
 * without a label. New shops get the new texts from the seed; this renews an existing shop's copies
 * the owner never changed: the welcome template when it was never edited (`updated_at =
 * created_at`), only that sentence, in its HTML and its text; the FAQ answer only when it is still
 * word for word the seeded one. An edited copy keeps the owner's words. The texts are frozen here
 * (this migration imports nothing from the app).
 */
const OLD_RULE =
  'You earn 10 points on orders of $50.00 or more and 3 points on smaller orders. Every 300 points gets you a 15% off coupon.';
const NEW_RULE =
  'Signed-in customers earn 10 points for every order whose total (what you pay, after any discount and with shipping and tax) is $50.00 or more, and 3 points for smaller orders. Every 300 points automatically gives you a 15% off coupon, valid for 90 days.';
const OLD_FAQ =
  'When your order ships we e-mail you a tracking number. You can also see the status of every order on the Orders page of your account.';
const NEW_FAQ =
  'When your order ships with a carrier tracking number, we e-mail it to you with a link to follow the parcel. Some orders travel without one (a local delivery, for example); we still e-mail you when they ship. You can see the status of every order on the Orders page of your account.';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString();
  const welcome: { html: string; text: string | null; created_at: string; updated_at: string } | undefined = await db
    .selectFrom('email_templates')
    .select(['html', 'text', 'created_at', 'updated_at'])
    .where('id', '=', 'welcome')
    .executeTakeFirst();
  if (welcome && welcome.updated_at === welcome.created_at && welcome.html.includes(OLD_RULE)) {
    // The timestamps move together, so the copy still reads as never edited by the owner.
    await db
      .updateTable('email_templates')
      .set({
        html: welcome.html.replace(OLD_RULE, NEW_RULE),
        text: welcome.text?.replace(OLD_RULE, NEW_RULE) ?? null,
        created_at: now,
        updated_at: now,
      })
      .where('id', '=', 'welcome')
      .execute();
  }
  await db.updateTable('faqs').set({ answer: NEW_FAQ, updated_at: now }).where('answer', '=', OLD_FAQ).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('faqs').set({ answer: OLD_FAQ }).where('answer', '=', NEW_FAQ).execute();
}
