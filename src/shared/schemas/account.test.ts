import { describe, expect, it } from 'vitest';
import { formatPhone } from './account.js';

describe('formatPhone', () => {
  it('drops a leading country code 1 instead of shifting the number (issue 29)', () => {
    expect(formatPhone('+1 (415) 555-0100')).toBe('(415) 555-0100');
    expect(formatPhone('+14155550100')).toBe('(415) 555-0100');
    expect(formatPhone('1-415-555-0100')).toBe('(415) 555-0100');
    expect(formatPhone('+1 415')).toBe('(415');
    // Formatting what it formatted changes nothing.
    expect(formatPhone(formatPhone('+1 (415) 555-0100'))).toBe('(415) 555-0100');
  });
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
