import { REVIEW_LIMITS } from '../../shared/reviews.js';
import { GREEN, MUTED, p, plainPage as page, productTable, THANKS_FOOTER_TEXT as footer } from './plain-layout.js';

/**
 * The review request (issue [6/8], reviews/requests.ts): sent once per order some days after it
 * shipped (the owner's setting), listing the order's products, each with its own signed link to
 * write a review, and a link to stop these e-mails (also sent as a one-click List-Unsubscribe
 * header). The plain layout of plain-layout.ts; new shops and existing ones
 * get it from the seed (missing templates are added at start).
 */

/** One row per product: its picture (when it has one), its name and the variant bought, and its own link. */
const products = productTable(
  'products',
  `        <td valign="top" style="padding:12px 0;border-top:1px solid #e3ebe6;"><strong>{{name}}</strong>{{#if variant}}<br><span style="color:${MUTED};font-size:14px;">Bought: {{variant}}</span>{{/if}}<br>
          <a href="{{reviewUrl}}" style="display:inline-block;margin-top:8px;padding:8px 16px;background-color:${GREEN};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;">Write a review</a></td>`,
);

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
