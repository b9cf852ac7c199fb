import { REVIEW_LIMITS } from '../../shared/reviews.js';

/**
 * The review request (issue [6/8], reviews/requests.ts): sent once per order some days after it
 * shipped (the owner's setting), listing the order's products, each with its own signed link to
 * write a review, and a link to stop these e-mails (also sent as a one-click List-Unsubscribe
 * header). Plain layout of its own, as the subscription e-mails have; new shops and existing ones
 * get it from the seed (missing templates are added at start).
 */

const GREEN = '#2f7d4a';
const MUTED = '#5b6b61';

const page = (heading: string, body: string[]): string =>
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
  <tr><td style="padding:20px 32px;background-color:#f7faf8;font-size:13px;color:${MUTED};">Thank you for choosing EcoClean.<br>Questions? Just reply to this e-mail and we will be happy to help.</td></tr>
</table>
</body>
</html>`;

const p = (html: string): string => `    <p style="margin:0 0 16px 0;">${html}</p>`;

/** One row per product: its picture (when it has one), its name and the variant bought, and its own link. */
const products = `    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 16px 0;">
      {{#each products}}<tr>
        <td width="76" valign="top" style="padding:12px 12px 12px 0;border-top:1px solid #e3ebe6;">{{#if image}}<img src="{{image}}" width="64" height="64" alt="{{name}}" style="display:block;width:64px;height:64px;object-fit:cover;border-radius:6px;border:0;">{{/if}}</td>
        <td valign="top" style="padding:12px 0;border-top:1px solid #e3ebe6;"><strong>{{name}}</strong>{{#if variant}}<br><span style="color:${MUTED};font-size:14px;">Bought: {{variant}}</span>{{/if}}<br>
          <a href="{{reviewUrl}}" style="display:inline-block;margin-top:8px;padding:8px 16px;background-color:${GREEN};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;">Write a review</a></td>
      </tr>{{/each}}
    </table>`;

const footer = `\n--\nThank you for choosing EcoClean.\nQuestions? Just reply to this e-mail and we will be happy to help.\n`;

export const reviewEmailTemplates = [
  {
    id: 'review-request',
    name: 'Review Request',
    subject: 'How are you getting on with order #{{orderNumber}}?',
    variables: ['customerName', 'orderNumber', 'products', 'optOutUrl'],
    html: page('How are you getting on?', [
      p('Hi {{customerName}},'),
      p(
        'Your order <strong>#{{orderNumber}}</strong> reached you a little while ago. A few words about what you bought help other shoppers choose, and help us make it better:',
      ),
      products,
      p(
        `Each button opens a short form for that product: a star rating, and a sentence or two if you like. The links are yours alone, work for ${REVIEW_LIMITS.linkDays} days and do not sign you in.`,
      ),
      `    <p style="margin:0;font-size:13px;color:${MUTED};">Rather not be asked? <a href="{{optOutUrl}}" style="color:${MUTED};">Stop review requests</a>: one click, and we will not ask again.</p>`,
    ]),
    text: `Hi {{customerName}},

Your order #{{orderNumber}} reached you a little while ago. A few words about what you bought help other shoppers choose, and help us make it better:

{{#each products}}
{{name}}{{#if variant}} (bought: {{variant}}){{/if}}
Write a review: {{reviewUrl}}

{{/each}}
Each link opens a short form for that product: a star rating, and a sentence or two if you like. The links are yours alone, work for ${REVIEW_LIMITS.linkDays} days and do not sign you in.

Rather not be asked? Stop review requests (one click, and we will not ask again): {{optOutUrl}}
${footer}`,
  },
];
