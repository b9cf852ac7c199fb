import { z } from 'zod';
import { canonicalTimeZone, daysInPeriod, isCalendarDate } from '../shop-time.js';

/** The longest period a report, the order list or an export may cover (a year, leap day included). */
export const MAX_PERIOD_DAYS = 366;
/** The years a period may fall in: four-digit years keep the stored ISO instants comparable as text. */
const FIRST_DAY = '2000-01-01';
const LAST_DAY = '2099-12-31';
export const TIME_ZONE_MAX = 64;

/** The texts of periods and the shop's time zone, shared by the forms and the server. */
export const REPORT_MESSAGES = {
  dateFormat: (label: string) => `${label} must be a date written like 2026-11-27`,
  dateRange: (label: string) => `${label} must be between ${FIRST_DAY} and ${LAST_DAY}`,
  bothDates: 'Choose both a start date (from) and an end date (to), or neither',
  fromAfterTo: 'The start date must be on or before the end date',
  tooLong: `A period can be at most ${MAX_PERIOD_DAYS} days long: choose a later start date or an earlier end date`,
  daysAndDates: 'Choose either a number of days or a start and end date, not both',
  timeZoneRequired: 'Time zone is required',
  timeZoneTooLong: `Time zone cannot exceed ${TIME_ZONE_MAX} characters`,
  timeZoneUnknown: 'Unknown time zone: choose one from the list (a name like America/New_York or Europe/Paris)',
  timeZoneSaved: "The shop's days now follow this time zone.",
} as const;

/** A day of the shop's calendar, as a query parameter or a date input gives it ('' is no day). */
export function periodDate(label: string) {
  return z
    .string({ message: REPORT_MESSAGES.dateFormat(label) })
    .trim()
    .max(10, REPORT_MESSAGES.dateFormat(label))
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || isCalendarDate(v), REPORT_MESSAGES.dateFormat(label))
    .refine((v) => v === undefined || (v >= FIRST_DAY && v <= LAST_DAY), REPORT_MESSAGES.dateRange(label));
}

/** `from` and `to`: the shop's days of a period, both counted. */
export const PeriodFields = {
  from: periodDate('Start date'),
  to: periodDate('End date'),
};

type PeriodValues = { from?: string | undefined; to?: string | undefined };

/** The rules between the two dates: both or neither, in order, and no longer than a year. */
export function checkPeriod(v: PeriodValues, ctx: z.RefinementCtx): void {
  if (!v.from && !v.to) return;
  if (!v.from || !v.to) {
    ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.bothDates, path: [v.from ? 'to' : 'from'] });
    return;
  }
  if (v.from > v.to) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.fromAfterTo, path: ['to'] });
  else if (daysInPeriod(v.from, v.to) > MAX_PERIOD_DAYS) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.tooLong, path: ['from'] });
}

/** The back office's period filter (from and to), as the order list and the overview's custom period use it. */
export const PeriodInput = z.object(PeriodFields).strict().superRefine(checkPeriod);
export type PeriodInput = z.input<typeof PeriodInput>;

/** The shop's time zone: an IANA name the runtime knows, stored in its canonical spelling. */
export const ShopTimeZone = z
  .string({ message: REPORT_MESSAGES.timeZoneRequired })
  .trim()
  .min(1, REPORT_MESSAGES.timeZoneRequired)
  .max(TIME_ZONE_MAX, REPORT_MESSAGES.timeZoneTooLong)
  .refine((v) => canonicalTimeZone(v) !== null, REPORT_MESSAGES.timeZoneUnknown)
  .transform((v) => canonicalTimeZone(v) ?? v);

/** PUT /api/admin/settings/time-zone. */
export const TimeZoneSettingsInput = z.object({ shop_time_zone: ShopTimeZone }).strict();
export type TimeZoneSettingsInput = z.input<typeof TimeZoneSettingsInput>;

/** GET /api/admin/customers CSV (GET /api/admin/exports/customers.csv): every customer, or those who ordered in a period. */
export const CustomerExportQuery = z.object(PeriodFields).strict().superRefine(checkPeriod);
