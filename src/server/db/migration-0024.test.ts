import { describe, expect, it } from 'vitest';
import { defaultEmailTemplates, SUBSCRIPTION_BLOCK_HTML, SUBSCRIPTION_BLOCK_TEXT } from '../email/default-templates.js';
import { HTML, TEXT, VARIABLES } from './migrations/0024-confirmation-delivery.js';

describe('migration 0024 (confirmation says the delivery)', () => {
  it('renews unedited confirmations to the built-in text a new shop is seeded with today, but for the subscription block 0042 adds', () => {
    const live = defaultEmailTemplates.find((t) => t.id === 'order-confirmation')!;
    // Migration 0042 puts the subscription block before the "another e-mail" line (tested in migration-0042-confirmation.http.test.ts).
    const before0042 = {
      html: live.html.replace(`${SUBSCRIPTION_BLOCK_HTML}\n`, ''),
      text: live.text.replace(`${SUBSCRIPTION_BLOCK_TEXT}\n`, ''),
      variables: live.variables.filter((v) => !v.startsWith('subscription')),
    };
    expect(before0042.html).not.toContain('subscriptionTerms');
    expect({ html: HTML, text: TEXT, variables: VARIABLES }).toEqual(before0042);
    expect(HTML).toContain('{{#if shippingMethod}}');
  });
});
