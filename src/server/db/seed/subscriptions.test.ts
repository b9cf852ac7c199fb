import { describe, expect, it } from 'vitest';
import { DEMO_SUBSCRIPTION, demoSubscriptionDates } from './subscriptions.js';

describe('the demo subscription’s dates', () => {
  it('put two deliveries an interval apart in the past, and the next renewal an interval later, in the future', () => {
    const now = new Date('2026-12-01T08:30:00.000Z');
    const { deliveries, nextRenewalAt } = demoSubscriptionDates(now);
    expect(deliveries).toEqual(['2026-10-24T10:00:00.000Z', '2026-11-21T10:00:00.000Z']);
    expect(nextRenewalAt).toBe('2026-12-19T10:00:00.000Z');
    expect(Date.parse(deliveries[1]) - Date.parse(deliveries[0])).toBe(DEMO_SUBSCRIPTION.everyWeeks * 7 * 86_400_000);
    expect(Date.parse(nextRenewalAt)).toBeGreaterThan(now.getTime());
  });
});
