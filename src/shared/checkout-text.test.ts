import { describe, expect, it } from 'vitest';
import { CHECKOUT_FIELD_MAX_LENGTH, DEFAULT_STATE, SHIPS_TO_TEXT, US_STATE_CODES, US_STATES } from './checkout-text.js';
import { CheckoutForm } from './schemas/checkout.js';
import { fieldMaxLength } from './schemas/limits.js';

describe('the places the shop ships to', () => {
  it('lists the 50 states and D.C., each once, in the order of their names, and says so', () => {
    expect(US_STATES).toHaveLength(51);
    expect(new Set(US_STATE_CODES).size).toBe(51);
    expect(US_STATE_CODES).toContain('DC');
    expect(US_STATE_CODES).toContain(DEFAULT_STATE);
    const names = US_STATES.map(([, name]) => name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(SHIPS_TO_TEXT).toMatch(/50 states and Washington, D\.C\./);
  });

  it('gives the checkout inputs the schema’s own limits (the page sets maxLength without loading zod)', () => {
    for (const field of ['firstName', 'lastName', 'email', 'address', 'city', 'state', 'zip']) {
      expect(CHECKOUT_FIELD_MAX_LENGTH[field], field).toBe(fieldMaxLength(CheckoutForm, field));
    }
  });
});
