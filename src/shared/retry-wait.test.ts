import { describe, expect, it } from 'vitest';
import { waitInWords } from './retry-wait.js';

describe('waitInWords', () => {
  it('rounds up, so waiting what it says is always enough', () => {
    expect(waitInWords(1)).toBe('1 second');
    expect(waitInWords(0.2)).toBe('1 second');
    expect(waitInWords(45)).toBe('45 seconds');
    expect(waitInWords(60)).toBe('1 minute');
    expect(waitInWords(61)).toBe('2 minutes');
    expect(waitInWords(720)).toBe('12 minutes');
    expect(waitInWords(900)).toBe('15 minutes');
    expect(waitInWords(3600)).toBe('60 minutes');
    expect(waitInWords(86_400)).toBe('24 hours');
  });
});
