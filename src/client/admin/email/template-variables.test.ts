import { describe, expect, it } from 'vitest';
import { variablesUsed } from './template-variables.js';

describe('variablesUsed', () => {
  it('finds plain and triple-brace variables, the objects of dotted paths and the subjects of blocks', () => {
    expect(
      variablesUsed(
        'Hi {{customerName}} {{{itemsList}}} {{#if tracking}}{{tracking.number}}{{else}}none{{/if}} {{#unless paid}}x{{/unless}}',
      ),
    ).toEqual(['customerName', 'itemsList', 'tracking', 'paid']);
  });

  it("leaves out an {{#each}} item's own fields, nested blocks too", () => {
    const source =
      '{{#each items}}<td>{{name}}{{#if isFreeGift}} (Free Gift){{/if}} x {{quantity}}</td>{{#each options}}{{label}}{{/each}}{{/each}} {{total}} {{#each shippingAddressLines}}{{#unless @first}}<br>{{/unless}}{{this}}{{/each}}';
    expect(variablesUsed(source)).toEqual(['items', 'total', 'shippingAddressLines']);
  });
});
