import { describe, expect, it } from 'vitest';
import {
  fillPlaceholders,
  freeShippingMinimumCents,
  freeShippingSettingValue,
  shippingRatesText,
  siteDescription,
  SITE_DESCRIPTION_BASE,
  TAX_EXAMPLE,
  taxRuleText,
  unknownPlaceholders,
  type FactShippingOption,
} from './shop-facts.js';
import { computeTotals, TAX_RATE_PERCENT } from './pricing.js';
import { formatCents } from './money.js';

const standard: FactShippingOption = {
  name: 'Standard Shipping',
  priceCents: 599,
  estimatedDays: '5-7 business days',
  minimumOrderCents: null,
};
const express: FactShippingOption = {
  name: 'Expedited Shipping',
  priceCents: 1299,
  estimatedDays: '2-3 business days',
  minimumOrderCents: null,
};
const free = (minimumOrderCents: number | null): FactShippingOption => ({
  name: 'Free Shipping',
  priceCents: 0,
  estimatedDays: '7-10 business days',
  minimumOrderCents,
});

describe('the free-shipping minimum and the site description', () => {
  it('is the smallest minimum of the free options, and says nothing when none is free', () => {
    expect(freeShippingMinimumCents([standard, free(5000)])).toBe(5000);
    expect(freeShippingMinimumCents([free(10000), standard, free(7500)])).toBe(7500);
    expect(freeShippingMinimumCents([standard, express])).toBeNull();
    expect(freeShippingSettingValue([standard, free(null)])).toBe('0');
    expect(freeShippingSettingValue([standard])).toBe('');
  });

  it('follows the setting the server derives', () => {
    expect(siteDescription({ free_shipping_minimum_cents: '5000' })).toBe(
      `${SITE_DESCRIPTION_BASE} Free shipping on orders with a subtotal of $50.00 or more.`,
    );
    expect(siteDescription({ free_shipping_minimum_cents: '12550' })).toBe(
      `${SITE_DESCRIPTION_BASE} Free shipping on orders with a subtotal of $125.50 or more.`,
    );
    expect(siteDescription({ free_shipping_minimum_cents: '0' })).toBe(`${SITE_DESCRIPTION_BASE} Free shipping on every order.`);
    // No free option, a settings answer not loaded yet, or nonsense: no promise at all.
    const cases: (Record<string, string> | undefined)[] = [
      { free_shipping_minimum_cents: '' },
      {},
      undefined,
      { free_shipping_minimum_cents: '-5' },
    ];
    for (const settings of cases) {
      expect(siteDescription(settings)).toBe(SITE_DESCRIPTION_BASE);
    }
  });
});

describe('the shipping and tax texts', () => {
  it('lists the enabled options with prices, times and minimums', () => {
    expect(shippingRatesText([standard, express, free(5000)])).toBe(
      'Standard Shipping is $5.99 (5-7 business days) and Expedited Shipping is $12.99 (2-3 business days). Orders with a subtotal of $50.00 or more can choose Free Shipping (free, 7-10 business days).',
    );
    expect(shippingRatesText([standard])).toBe('Standard Shipping is $5.99 (5-7 business days).');
    expect(shippingRatesText([])).toBe('Shipping options and prices are shown at checkout.');
  });

  it('states the rule checkout charges, with an example computed by it', () => {
    for (const shipping of [standard, express]) {
      const totals = computeTotals({
        lines: [{ priceCents: TAX_EXAMPLE.subtotalCents, quantity: 1 }],
        coupon: { discountType: 'fixed', discountValue: TAX_EXAMPLE.discountCents },
        shippingOptions: [{ id: 'x', priceCents: shipping.priceCents, enabled: true, minimumOrderCents: null }],
      });
      const text = taxRuleText([shipping, free(5000)]);
      expect(text).toContain(`Sales tax of ${TAX_RATE_PERCENT}% is charged on your order subtotal minus any discount, plus shipping`);
      expect(text).toContain(`and ${formatCents(shipping.priceCents)} shipping pays ${formatCents(totals.taxCents)} tax`);
      expect(text).toContain(
        `(${TAX_RATE_PERCENT}% of ${formatCents(totals.subtotalCents - totals.discountCents + totals.shippingCents)})`,
      );
    }
    // The cheapest paid option without a minimum is the example's; with none, shipping is free.
    expect(taxRuleText([express, standard])).toContain('$5.99 shipping pays $3.36 tax (8% of $41.99)');
    expect(taxRuleText([free(null)])).toContain('free shipping pays $2.88 tax (8% of $36.00)');
  });

  it('fills the placeholders an answer holds and leaves the rest of it as written', () => {
    const options = [standard, free(5000)];
    expect(fillPlaceholders('Yes. {{tax_rule}}', options)).toBe(`Yes. ${taxRuleText(options)}`);
    expect(fillPlaceholders('{{ shipping_rates }}\n\nAsk us.', options)).toBe(`${shippingRatesText(options)}\n\nAsk us.`);
    expect(fillPlaceholders('Good news. {{free_shipping}}', [standard])).toBe('Good news.');
    expect(fillPlaceholders('Keep {{unknown}} and $ signs: $&', options)).toBe('Keep {{unknown}} and $ signs: $&');
    expect(unknownPlaceholders('{{tax_rule}} {{tax_rate}} {{ shipping_rates }} {{x}}')).toEqual(['tax_rate', 'x']);
  });
});
