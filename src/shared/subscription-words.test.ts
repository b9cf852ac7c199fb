import { describe, expect, it } from 'vitest';
import { ordinal, subscriptionTerms, subscriptionTermsText, type TermsLine } from './subscription-words.js';

/** Lines as a quote prices them: `priceCents` already less the plan's first-delivery discount. */
const line = (o: Partial<TermsLine> & Pick<TermsLine, 'name'>): TermsLine => ({
  quantity: 1,
  everyWeeks: 4,
  planDiscountPercent: 10,
  oneTimePriceCents: 2000,
  priceCents: 1800,
  planLater: null,
  ...o,
});
const NOW = '2026-11-29T10:00:00.000Z';

describe('subscriptionTermsText', () => {
  it('says per subscription what each delivery costs, how often, until cancelled, the first renewal and how to cancel', () => {
    const text = subscriptionTermsText(
      [
        line({ name: 'Laundry Powder', quantity: 2 }),
        line({
          name: 'Cleaner — Lavender, 16 oz',
          oneTimePriceCents: 1599,
          priceCents: 1439,
          planLater: { discountPercent: 15, fromDelivery: 4 },
        }),
        line({ name: 'Cloth', everyWeeks: null, planDiscountPercent: null, priceCents: 500, oneTimePriceCents: 500 }),
      ],
      NOW,
    );
    expect(text.split('\n')).toEqual([
      'Every 4 weeks: Laundry Powder × 2.',
      "We charge $36.00 for each delivery (today's prices less 10%), plus shipping and tax as on each order, to the card you pay with now.",
      'It continues every 4 weeks until you cancel. First renewal: December 27, 2026.',
      'Every 4 weeks: Cleaner — Lavender, 16 oz × 1.',
      "We charge $14.39 for each delivery (today's prices less 10%), plus shipping and tax as on each order, to the card you pay with now. From the 4th delivery: $13.59 (today's prices less 15%).",
      'It continues every 4 weeks until you cancel. First renewal: December 27, 2026.',
      'Cancel any time online from your account or the link in your confirmation e-mail.',
    ]);
  });

  it('one block per interval, shortest first; the renewal date is the interval after now', () => {
    const { groups } = subscriptionTerms(
      [line({ name: 'A', everyWeeks: 8 }), line({ name: 'B', everyWeeks: 1 }), line({ name: 'C', everyWeeks: 8 })],
      NOW,
    );
    expect(groups.map((g) => [g.everyWeeks, g.firstRenewalAt, g.paragraphs[0]])).toEqual([
      [1, '2026-12-06T10:00:00.000Z', 'Every week: B × 1.'],
      [8, '2027-01-24T10:00:00.000Z', 'Every 8 weeks: A × 1, C × 1.'],
    ]);
    expect(groups[0]!.paragraphs[2]).toBe('It continues every week until you cancel. First renewal: December 6, 2026.');
  });

  it('a plan without a discount says today’s prices; a free gift and one-time lines make no terms', () => {
    expect(subscriptionTermsText([line({ name: 'A', planDiscountPercent: 0, priceCents: 2000 })], NOW)).toContain(
      "We charge $20.00 for each delivery (today's prices), plus",
    );
    expect(subscriptionTermsText([line({ name: 'Gift', isFreeGift: true }), line({ name: 'Once', everyWeeks: null })], NOW)).toBe('');
  });

  it('ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '111th',
    ]);
  });
});
