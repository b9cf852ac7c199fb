import { describe, expect, it } from 'vitest';
import { formatAddress } from './address.js';

const full = {
  name: 'Ada Shopper',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
  country: 'US',
  email: 'ada@example.com',
};

describe('formatAddress', () => {
  it('gives name, street, "city, state zip" and country; e-mail only when asked; country left out when asked', () => {
    expect(formatAddress(full)).toEqual(['Ada Shopper', '1 Main St', 'Springfield, IL 62704', 'US']);
    expect(formatAddress(full, { email: true })).toEqual(['Ada Shopper', '1 Main St', 'Springfield, IL 62704', 'US', 'ada@example.com']);
    expect(formatAddress(full, { country: false })).toEqual(['Ada Shopper', '1 Main St', 'Springfield, IL 62704']);
  });

  it('leaves out missing parts', () => {
    expect(formatAddress({ city: 'Springfield', zip: '62704' })).toEqual(['Springfield, 62704']);
    expect(formatAddress({ state: 'IL', zip: '62704', name: '' })).toEqual(['IL 62704']);
    expect(formatAddress(null)).toEqual([]);
  });

  it('splits a free-text address into lines, trimmed for the back office', () => {
    expect(formatAddress('Ada\r\n 1 Main St \n\nSpringfield')).toEqual(['Ada', ' 1 Main St ', 'Springfield']);
    expect(formatAddress('Ada\r\n 1 Main St \n\nSpringfield', { trimLines: true })).toEqual(['Ada', '1 Main St', 'Springfield']);
  });
});
