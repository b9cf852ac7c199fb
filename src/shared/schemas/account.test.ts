import { describe, expect, it } from 'vitest';
import { formatPhone } from './account.js';

describe('formatPhone', () => {
  it('formats digits as they are typed, up to 10', () => {
    expect(formatPhone('')).toBe('');
    expect(formatPhone('5')).toBe('(5');
    expect(formatPhone('555')).toBe('(555');
    expect(formatPhone('5551')).toBe('(555) 1');
    expect(formatPhone('555123')).toBe('(555) 123');
    expect(formatPhone('5551234')).toBe('(555) 123-4');
    expect(formatPhone('(555) 123-45678901')).toBe('(555) 123-4567');
    expect(formatPhone('abc')).toBe('');
  });
});
