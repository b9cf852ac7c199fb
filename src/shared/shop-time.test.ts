import { describe, expect, it } from 'vitest';
import { localDateOf, localDateTimeText, offsetStretches, periodRange, startOfLocalDay } from './shop-time.js';

describe("the shop's calendar", () => {
  it('bounds a day by its local midnights, 23 or 25 hours long across a clock change', () => {
    expect(periodRange('2026-01-15', '2026-01-15', 'America/New_York')).toEqual({
      from: '2026-01-15',
      to: '2026-01-15',
      start: '2026-01-15T05:00:00.000Z',
      end: '2026-01-16T05:00:00.000Z',
    });
    const spring = periodRange('2026-03-08', '2026-03-08', 'America/New_York');
    expect([spring.start, spring.end]).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    const autumn = periodRange('2026-10-25', '2026-10-25', 'Europe/Paris');
    expect(Date.parse(autumn.end) - Date.parse(autumn.start)).toBe(25 * 3600_000);
    expect(new Date(startOfLocalDay('2026-01-16', 'Asia/Kolkata')).toISOString()).toBe('2026-01-15T18:30:00.000Z');
    expect(new Date(startOfLocalDay('2026-01-16', 'UTC')).toISOString()).toBe('2026-01-16T00:00:00.000Z');
  });

  it("writes an instant as the shop's day and clock", () => {
    expect(localDateOf(Date.parse('2026-01-16T04:30:00.000Z'), 'America/New_York')).toBe('2026-01-15');
    expect(localDateTimeText('2026-11-27T19:05:59.999Z', 'America/New_York')).toBe('2026-11-27 14:05');
    expect(localDateTimeText('2026-01-15T18:45:00.000Z', 'Asia/Kolkata')).toBe('2026-01-16 00:15');
    expect(localDateTimeText(null, 'UTC')).toBe('');
  });

  it('finds the instant the offset changes inside a period', () => {
    const p = periodRange('2026-03-01', '2026-03-15', 'America/New_York');
    expect(offsetStretches(Date.parse(p.start), Date.parse(p.end), 'America/New_York')).toEqual([
      { until: Date.parse('2026-03-08T07:00:00.000Z'), offsetMs: -5 * 3600_000 },
      { until: Date.parse(p.end), offsetMs: -4 * 3600_000 },
    ]);
    const still = periodRange('2026-01-01', '2026-01-31', 'Asia/Kolkata');
    expect(offsetStretches(Date.parse(still.start), Date.parse(still.end), 'Asia/Kolkata')).toEqual([
      { until: Date.parse(still.end), offsetMs: 5.5 * 3600_000 },
    ]);
  });
});
