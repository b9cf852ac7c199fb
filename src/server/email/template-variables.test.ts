import { describe, expect, it } from 'vitest';
import { defaultEmailTemplates } from './default-templates.js';
import { SAMPLE_VARIABLES } from './templates.js';
import { templateVocabulary, unknownVariables, unknownVariablesMessage } from './template-variables.js';

function check(id: string, sources: string[], listed: string[] = []) {
  const v = templateVocabulary(id, listed, SAMPLE_VARIABLES);
  const unknown = unknownVariables(sources, { names: v.names, sample: SAMPLE_VARIABLES, ...(v.nested ? { nested: v.nested } : {}) });
  return { unknown, message: unknown.length ? unknownVariablesMessage(unknown, v.offered) : null };
}

describe('template variables, read from the Handlebars parse tree', () => {
  it.each(defaultEmailTemplates.map((t) => [t.id, t] as const))('the built-in %s passes its own check', (_id, t) => {
    expect(check(t.id, [t.subject, t.html, t.text]).unknown).toEqual([]);
  });

  it('an unknown variable is named, with the list the template declares', () => {
    const { message } = check('order-confirmation', ['Order {{ordernumber}}', '<p>{{customerName}}</p>']);
    expect(message).toBe(
      'Unknown variable {{ordernumber}}. This template can use: {{orderNumber}}, {{customerName}}, {{items}}, {{subtotal}}, {{discount}}, {{shipping}}, {{tax}}, {{total}}, {{shippingAddressLines}}, {{orderUrl}}, {{shippingMethod}}, {{deliveryEstimate}}, {{subscriptionTerms}}, {{subscriptionAccountNote}}, {{subscriptionManageUrl}}, {{subscriptionCancelLinks}}.',
    );
  });

  it('blocks and the fields of items inside {{#each}} keep working; an unknown field there is named with the item fields', () => {
    const ok = '{{#each items}}{{name}} × {{quantity}}{{#if isFreeGift}} free{{/if}} {{lineTotal}} of #{{../orderNumber}}{{/each}}';
    expect(check('order-confirmation', [ok]).unknown).toEqual([]);
    expect(
      check('order-confirmation', ['{{#each items}}{{@index}}{{this.name}}{{/each}}{{#each shippingAddressLines}}{{this}}{{/each}}'])
        .unknown,
    ).toEqual([]);
    const { message } = check('order-confirmation', ['{{#each items}}{{sku}}{{/each}}']);
    expect(message).toContain('Unknown field {{sku}} inside {{#each items}}');
    expect(message).toContain('{{lineTotal}}');
  });

  it('a name used as a block subject or helper argument is checked too; {{#with}} enters the object', () => {
    expect(check('order-status-update', ['{{#if trackingg}}x{{/if}}']).unknown.map((u) => u.name)).toEqual(['trackingg']);
    expect(check('order-status-update', ['{{#with tracking}}{{number}} {{url}}{{/with}}']).unknown).toEqual([]);
    expect(check('order-status-update', ['{{#with tracking}}{{numbr}}{{/with}}']).unknown.map((u) => u.name)).toEqual(['numbr']);
  });

  it('templates edited before migration 0015 may still use the legacy variables the shop sends them', () => {
    expect(check('order-confirmation', ['{{{itemsList}}} {{shippingAddress}}']).unknown).toEqual([]);
  });

  it("the owner's own template may use the variables it lists, and only those", () => {
    expect(check('spring-sale', ['Hi {{customerName}}, {{couponCode}}'], ['customerName', 'couponCode']).unknown).toEqual([]);
    expect(check('spring-sale', ['Hi {{customerName}}'], []).message).toBe(
      'Unknown variable {{customerName}}. This template can use: no variables (list one under Variables first).',
    );
  });
});
