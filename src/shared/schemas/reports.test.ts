import { describe, expect, it } from 'vitest';
import { AdminOrderListQuery, AdminOrdersOverviewQuery } from './admin/orders.js';
import { CustomerExportQuery, PeriodInput, REPORT_MESSAGES, TimeZoneSettingsInput } from './reports.js';

/** The first message a schema gives for an input (what the server answers and the form shows). */
function messageOf(schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }, input: unknown) {
  const r = schema.safeParse(input);
  return r.success ? null : r.error!.issues[0]!.message;
}

describe('period messages', () => {
  it('asks for real dates, written as 2026-11-27, within the years the shop keeps', () => {
    expect(messageOf(PeriodInput, { from: '27/11/2026', to: '2026-11-28' })).toBe(REPORT_MESSAGES.dateFormat('Start date'));
    expect(messageOf(PeriodInput, { from: '2026-11-01', to: '2026-02-30' })).toBe(REPORT_MESSAGES.dateFormat('End date'));
    expect(messageOf(PeriodInput, { from: '2026-11-01', to: '2026-11-0100' })).toBe(REPORT_MESSAGES.dateFormat('End date'));
    expect(messageOf(PeriodInput, { from: '1999-12-31', to: '2026-01-01' })).toBe(REPORT_MESSAGES.dateRange('Start date'));
    expect(messageOf(PeriodInput, { from: '2026-01-01', to: '2100-01-01' })).toBe(REPORT_MESSAGES.dateRange('End date'));
    expect(REPORT_MESSAGES.dateFormat('Start date')).toBe('Start date must be a date written like 2026-11-27');
  });

  it('wants both dates or neither, in order, at most 366 days apart', () => {
    expect(messageOf(PeriodInput, {})).toBeNull();
    expect(messageOf(PeriodInput, { from: '', to: '' })).toBeNull();
    expect(messageOf(PeriodInput, { from: '2026-11-01' })).toBe(REPORT_MESSAGES.bothDates);
    expect(messageOf(PeriodInput, { to: '2026-11-01' })).toBe(REPORT_MESSAGES.bothDates);
    expect(messageOf(PeriodInput, { from: '2026-11-02', to: '2026-11-01' })).toBe(REPORT_MESSAGES.fromAfterTo);
    expect(messageOf(PeriodInput, { from: '2026-11-01', to: '2026-11-01' })).toBeNull();
    expect(messageOf(PeriodInput, { from: '2028-01-01', to: '2028-12-31' })).toBeNull();
    expect(messageOf(PeriodInput, { from: '2027-01-01', to: '2028-01-02' })).toBe(REPORT_MESSAGES.tooLong);
    // The message names where to act: the start date when the period is too long, the end when it runs backwards.
    expect(PeriodInput.safeParse({ from: '2026-11-02', to: '2026-11-01' }).error!.issues[0]!.path).toEqual(['to']);
    expect(PeriodInput.safeParse({ from: '2027-01-01', to: '2028-01-02' }).error!.issues[0]!.path).toEqual(['from']);
  });

  it('holds on the order list, the exports and the overview, which also refuses days with dates', () => {
    expect(messageOf(AdminOrderListQuery, { from: '2026-11-02', to: '2026-11-01' })).toBe(REPORT_MESSAGES.fromAfterTo);
    expect(messageOf(CustomerExportQuery, { from: '2026-11-02' })).toBe(REPORT_MESSAGES.bothDates);
    expect(messageOf(AdminOrdersOverviewQuery, { days: '7', from: '2026-11-01', to: '2026-11-02' })).toBe(REPORT_MESSAGES.daysAndDates);
    expect(AdminOrdersOverviewQuery.parse({})).toEqual({ days: 30 });
    expect(AdminOrdersOverviewQuery.parse({ from: '2026-11-01', to: '2026-11-02' })).toEqual({
      days: 30,
      from: '2026-11-01',
      to: '2026-11-02',
    });
  });
});

describe('time zone messages', () => {
  it('takes an IANA name in its canonical spelling, and says what is wrong with anything else', () => {
    expect(TimeZoneSettingsInput.parse({ shop_time_zone: ' america/new_york ' })).toEqual({ shop_time_zone: 'America/New_York' });
    expect(TimeZoneSettingsInput.parse({ shop_time_zone: 'Asia/Kolkata' })).toEqual({ shop_time_zone: 'Asia/Kolkata' });
    expect(messageOf(TimeZoneSettingsInput, { shop_time_zone: '' })).toBe(REPORT_MESSAGES.timeZoneRequired);
    expect(messageOf(TimeZoneSettingsInput, {})).toBe(REPORT_MESSAGES.timeZoneRequired);
    expect(messageOf(TimeZoneSettingsInput, { shop_time_zone: 'x'.repeat(65) })).toBe(REPORT_MESSAGES.timeZoneTooLong);
    expect(messageOf(TimeZoneSettingsInput, { shop_time_zone: 'Atlantis/Capital' })).toBe(REPORT_MESSAGES.timeZoneUnknown);
    expect(messageOf(TimeZoneSettingsInput, { shop_time_zone: 'EST+5' })).toBe(REPORT_MESSAGES.timeZoneUnknown);
  });
});
