import { describe, expect, it } from 'vitest';
import { defaultEmailTemplates } from '../email/default-templates.js';
import { seedFaqs } from '../db/seed/catalog-data.js';
import { loyaltyRuleText } from '../../shared/shop-facts.js';

/** Decision 0044: texts a shopper reads say only what the shop does. */
describe('shopper texts', () => {
  it('the welcome e-mail says which figure earns points (the total), from the loyalty rule itself', () => {
    const welcome = defaultEmailTemplates.find((t) => t.id === 'welcome')!;
    for (const body of [welcome.html, welcome.text]) {
      expect(body).toContain('whose total (what you pay');
      expect(body).not.toMatch(/on orders of \$50\.00 or more/);
    }
    expect(welcome.text).toContain(loyaltyRuleText());
  });

  it('the FAQ promises a tracking number only for an order that ships with one', () => {
    const track = seedFaqs.find((f) => f.question === 'How can I track my order?')!;
    expect(track.answer).not.toMatch(/When your order ships we e-mail you a tracking number/);
    expect(track.answer).toContain('When your order ships with a carrier tracking number, we e-mail it to you');
  });
});
