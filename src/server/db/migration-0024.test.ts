import { describe, expect, it } from 'vitest';
import { defaultEmailTemplates } from '../email/default-templates.js';
import { HTML, TEXT, VARIABLES } from './migrations/0024-confirmation-delivery.js';

describe('migration 0024 (confirmation says the delivery)', () => {
  it('renews unedited confirmations to the built-in text a new shop is seeded with today', () => {
    const live = defaultEmailTemplates.find((t) => t.id === 'order-confirmation')!;
    expect({ html: HTML, text: TEXT, variables: VARIABLES }).toEqual({ html: live.html, text: live.text, variables: live.variables });
    expect(HTML).toContain('{{#if shippingMethod}}');
  });
});
