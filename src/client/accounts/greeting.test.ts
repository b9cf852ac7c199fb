import { describe, expect, it } from 'vitest';
import { dashboardGreeting, NEW_ACCOUNT_MS } from './greeting.js';

describe('dashboardGreeting', () => {
  const now = Date.parse('2026-11-27T12:00:00.000Z');
  it('greets an account made seconds ago as new', () => {
    expect(dashboardGreeting({ fullName: 'Ana', createdAt: '2026-11-27T11:59:55.000Z' }, now)).toBe('Welcome to EcoClean, Ana!');
  });
  it('says "Welcome back" once the account is older', () => {
    const created = new Date(now - NEW_ACCOUNT_MS - 1000).toISOString();
    expect(dashboardGreeting({ fullName: 'Ana', createdAt: created }, now)).toBe('Welcome back, Ana!');
  });
});
