import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, SHIPS_TO_TEXT, US_STATE_CODES, US_STATES } from './checkout-text.js';

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
});
