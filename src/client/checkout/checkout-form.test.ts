import { describe, expect, it } from 'vitest';
import { EMPTY_CHECKOUT_VALUES, validateCheckout, validationToastText, valuesFromUser } from './checkout-form.js';

describe('checkout form', () => {
  it('reports each field with the spec message and lists them with the spec labels', () => {
    const r = validateCheckout({ ...EMPTY_CHECKOUT_VALUES, email: 'nope', zip: '123' });
    expect(r.data).toBeNull();
    expect(r.errors).toMatchObject({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Please enter a valid email',
      address: 'Address is required',
      city: 'City is required',
      zip: 'ZIP code must be 5 digits (e.g., 12345 or 12345-6789)',
    });
    const text = validationToastText(r.errors ?? {});
    expect(text.split('\n')[0]).toBe('Please fix the following issues:');
    expect(text).toContain('• First Name: First name is required');
    expect(text).toContain('• ZIP Code: ZIP code must be 5 digits (e.g., 12345 or 12345-6789)');
  });

  it('accepts a complete form and ZIP+4', () => {
    const r = validateCheckout({
      firstName: 'Pat',
      lastName: 'Buyer',
      email: 'pat@example.com',
      address: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zip: '73301-1234',
    });
    expect(r.errors).toBeNull();
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
