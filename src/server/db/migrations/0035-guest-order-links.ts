import type { Kysely } from 'kysely';

/**
 * Issue [2/8]: the status e-mail told every customer to "check your order status at any time from
 * your account", guests too, who have none. It now links a guest to their order's own page and an
 * account holder to their orders (`guestOrder`, `orderUrl`; email/order-email-variables.ts). A
 * built-in template the owner never edited (`updated_at = created_at`) has that one sentence
 * replaced, in its HTML and its text (the rest left as other migrations made it); an edited one
 * keeps the owner's words and its list names the two new variables, which it may use. The texts
 * are frozen here (this migration imports nothing from the app).
 */
const OLD_HTML = '            <p style="margin:0 0 16px 0;">You can also check your order status at any time from your account.</p>';
const NEW_HTML =
  '            {{#if guestOrder}}\n            <p style="margin:0 0 16px 0;">You can see your order at any time on <a href="{{orderUrl}}" style="color:#2f7d4a;">its page</a>.</p>\n            {{else}}\n            <p style="margin:0 0 16px 0;">You can also check your order status at any time from <a href="{{orderUrl}}" style="color:#2f7d4a;">your account</a>.</p>\n            {{/if}}';
const OLD_TEXT = 'You can also check your order status at any time from your account.';
const NEW_TEXT =
  '{{#if guestOrder}}\nYou can see your order at any time on its page: {{orderUrl}}\n{{else}}\nYou can also check your order status at any time from your account: {{orderUrl}}\n{{/if}}';
const ADDED = ['guestOrder', 'orderUrl'];

function namesOf(json: string | null): string[] {
  let list: unknown = [];
  try {
    list = JSON.parse(json ?? '[]');
  } catch {
    list = [];
  }
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const rows: { html: string; text: string | null; variables: string | null; created_at: string; updated_at: string }[] = await db
    .selectFrom('email_templates')
    .select(['html', 'text', 'variables', 'created_at', 'updated_at'])
    .where('id', '=', 'order-status-update')
    .execute();
  for (const t of rows) {
    const names = namesOf(t.variables);
    const variables = JSON.stringify([...names, ...ADDED.filter((n) => !names.includes(n))]);
    const untouched = t.updated_at === t.created_at;
    await db
      .updateTable('email_templates')
      .set(
        untouched
          ? { html: t.html.replace(OLD_HTML, NEW_HTML), text: t.text === null ? null : t.text.replace(OLD_TEXT, NEW_TEXT), variables }
          : { variables },
      )
      .where('id', '=', 'order-status-update')
      .execute();
  }
}

/** The new lines read well without the variables' values too; the old sentence is not put back. */
export async function down(): Promise<void> {}
