/**
 * The plain layout of the e-mails that are not order e-mails (default-templates.ts has its own):
 * subscriptions' renewals, review requests, and offers and reminders. One frame, one paragraph
 * style, one product row picture, so the three look alike and change together.
 */

export const GREEN = '#2f7d4a';
export const MUTED = '#5b6b61';

/** The footer of transactional e-mails (marketing ones carry the unsubscribe link and postal address instead). */
export const THANKS_FOOTER_HTML = 'Thank you for choosing EcoClean.<br>Questions? Just reply to this e-mail and we will be happy to help.';
export const THANKS_FOOTER_TEXT = `\n--\nThank you for choosing EcoClean.\nQuestions? Just reply to this e-mail and we will be happy to help.\n`;

/** The whole e-mail: the brand's bar, the heading, the body's blocks, and the footer's HTML. */
export const plainPage = (heading: string, body: string[], footerHtml: string = THANKS_FOOTER_HTML): string =>
  `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading}</title></head>
<body style="margin:0;padding:24px 12px;background-color:#f3f6f4;font-family:Arial,Helvetica,sans-serif;color:#24382c;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;margin:0 auto;background-color:#ffffff;border-radius:8px;">
  <tr><td style="background-color:${GREEN};padding:20px 32px;font-size:24px;font-weight:bold;color:#ffffff;">EcoClean</td></tr>
  <tr><td style="padding:32px;font-size:16px;line-height:1.5;">
    <h1 style="margin:0 0 16px 0;font-size:22px;color:${GREEN};">${heading}</h1>
${body.join('\n')}
  </td></tr>
  <tr><td style="padding:20px 32px;background-color:#f7faf8;font-size:13px;color:${MUTED};">${footerHtml}</td></tr>
</table>
</body>
</html>`;

/** One paragraph of the body. */
export const p = (html: string): string => `    <p style="margin:0 0 16px 0;">${html}</p>`;

/** A green button. */
export const button = (href: string, label: string): string =>
  `    <p style="margin:0 0 16px 0;"><a href="${href}" style="display:inline-block;padding:12px 24px;background-color:${GREEN};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;">${label}</a></p>`;

/**
 * A table of products, one row per item of the list `each` names: its picture (when it has one),
 * then `cells` (the name cell and any after it); `after` closes the table (a total's row).
 */
export const productTable = (each: string, cells: string, after = ''): string =>
  `    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 16px 0;">
      {{#each ${each}}}<tr>
        <td width="76" valign="top" style="padding:12px 12px 12px 0;border-top:1px solid #e3ebe6;">{{#if image}}<img src="{{image}}" width="64" height="64" alt="{{name}}" style="display:block;width:64px;height:64px;object-fit:cover;border-radius:6px;border:0;">{{/if}}</td>
${cells}
      </tr>{{/each}}
${after}    </table>`;
