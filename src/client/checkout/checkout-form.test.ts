import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { checkoutResolver } from './checkout-form.js';
import { EMPTY_CHECKOUT_VALUES, validationToastText, valuesFromUser, type CheckoutFormValues } from './checkout-values.js';

const check = (values: CheckoutFormValues) =>
  checkoutResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<CheckoutFormValues>);

describe('checkout form', () => {
  it('reports each field with the spec message and lists them with the spec labels', async () => {
    const r = await check({ ...EMPTY_CHECKOUT_VALUES, email: 'nope', zip: '123' });
    const messages = Object.fromEntries(Object.entries(r.errors).map(([field, e]) => [field, (e as { message?: string }).message]));
    expect(messages).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Please enter a valid email',
      address: 'Address is required',
      city: 'City is required',
      zip: 'ZIP code must be 5 digits (e.g., 12345 or 12345-6789)',
    });
    const text = validationToastText(r.errors);
    expect(text.split('\n')[0]).toBe('Please fix the following issues:');
    expect(text).toContain('• First Name: First name is required');
    expect(text).toContain('• ZIP Code: ZIP code must be 5 digits (e.g., 12345 or 12345-6789)');
  });

  it('gives the body the server checks: e-mail and the address with the full name, ZIP+4 accepted', async () => {
    const r = await check({
      ...EMPTY_CHECKOUT_VALUES,
      firstName: 'Pat',
      lastName: 'Buyer',
      email: ' pat@example.com',
      address: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zip: '73301-1234',
    });
    expect(r.errors).toEqual({});
    expect(r.values).toEqual({
      customerEmail: 'pat@example.com',
      shippingAddress: { name: 'Pat Buyer', address: '1 Main St', city: 'Austin', state: 'TX', zip: '73301-1234', country: 'US' },
    });
  });

  it("marks the body as a bot's when a hidden trap field is filled", async () => {
    const filled = {
      ...EMPTY_CHECKOUT_VALUES,
      firstName: 'Pat',
      lastName: 'Buyer',
      email: 'pat@example.com',
      address: '1 Main St',
      city: 'Austin',
      zip: '73301',
    };
    expect((await check({ ...filled, consent: true })).values).toMatchObject({ website: 'filled' });
    expect((await check({ ...filled, contact_name: 'bot' })).values).toMatchObject({ website: 'filled' });
    expect((await check(filled)).values).not.toHaveProperty('website');
  });

  it('prefills from the signed-in user: full name split, e-mail, saved address', () => {
    const user = {
      id: 'u1',
      email: 'customer@example.com',
      fullName: 'Test  Customer Smith',
      phone: null,
      role: 'client' as const,
      emailVerified: true,
      loyaltyPoints: 0,
      totalPointsEarned: 0,
      createdAt: '',
      shippingAddress: { name: 'Test', address: '1 Road', city: 'Reno', state: 'NV', zip: '89501', country: 'US' },
      billingAddress: null,
    };
    expect(valuesFromUser(user)).toEqual({
      firstName: 'Test',
      lastName: 'Customer Smith',
      email: 'customer@example.com',
      address: '1 Road',
      city: 'Reno',
      state: 'NV',
      zip: '89501',
    });
    expect(valuesFromUser({ ...user, shippingAddress: null })).toEqual({
      firstName: 'Test',
      lastName: 'Customer Smith',
      email: 'customer@example.com',
    });
  });
});
