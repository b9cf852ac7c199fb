/*
 * The shop's calendar (issue [4/6], "days in the shop's time zone, not UTC"). Orders are stored
 * with UTC instants; the owner counts days where the shop is. These pure helpers turn a shop's
 * calendar day into the UTC instants that bound it (for range queries on the created_at index),
 * and an instant into the shop's day and clock, through the IANA data the runtime ships (Intl).
 * No fixed offsets anywhere: a day across a daylight-saving change is 23 or 25 hours long.
 */

/** Where a shop that never chose is assumed to be: the shop sells in dollars and its hours read "EST". */
export const DEFAULT_SHOP_TIME_ZONE = 'America/New_York';

/** A calendar day, 'YYYY-MM-DD'. */
export type LocalDate = string;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The IANA names the runtime lists (the Settings form offers them). */
export function timeZoneNames(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}

/**
 * An IANA time zone name the runtime knows ("Europe/Paris", "UTC"), spelled as listed, or null.
 * The name is kept rather than replaced by ICU's own id (which still says Asia/Calcutta for
 * Asia/Kolkata); only its letter case is mended.
 */
export function canonicalTimeZone(name: string): string | null {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  const lower = name.toLowerCase();
  if (resolved.toLowerCase() === lower) return resolved;
  return timeZoneNames().find((z) => z.toLowerCase() === lower) ?? name;
}

type Clock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function clockAt(ms: number, timeZone: string): Clock {
  const c: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') c[p.type] = Number(p.value);
  return { year: c.year!, month: c.month!, day: c.day!, hour: c.hour! % 24, minute: c.minute!, second: c.second! };
}

/** How far the shop's clock is ahead of UTC at an instant, in milliseconds (whole seconds). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const c = clockAt(ms, timeZone);
  const asUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The shop's calendar day of an instant. */
export function localDateOf(ms: number, timeZone: string): LocalDate {
  const c = clockAt(ms, timeZone);
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}`;
}

/** "2026-11-27 14:05": the shop's clock, as a spreadsheet reads a date and time ('' for no instant). */
export function localDateTimeText(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const c = clockAt(ms, timeZone);
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)} ${pad(c.hour)}:${pad(c.minute)}`;
}

function parts(date: LocalDate): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/** The day `n` days after (or before, negative) a calendar day. */
export function addDays(date: LocalDate, n: number): LocalDate {
  const [y, m, d] = parts(date);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** How many calendar days from `from` to `to`, both counted (1 for the same day). */
export function daysInPeriod(from: LocalDate, to: LocalDate): number {
  const [y1, m1, d1] = parts(from);
  const [y2, m2, d2] = parts(to);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000) + 1;
}

/** A real calendar day written 'YYYY-MM-DD' (not 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [y, m, d] = parts(text);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * The instant the shop's day begins. Local midnight is found from the offset at a first guess and
 * checked again there (a daylight-saving change between the two moves it); where midnight itself
 * is skipped (a few zones change clocks at 00:00), the day begins at the first instant after it.
 */
export function startOfLocalDay(date: LocalDate, timeZone: string): number {
  const [y, m, d] = parts(date);
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - zoneOffsetMs(guess, timeZone);
  const second = guess - zoneOffsetMs(first, timeZone);
  if (localDateOf(second, timeZone) === date) return second;
  return Math.max(first, second);
}

/** A period of the shop's days as the UTC instants that bound it: `start` ≤ created_at < `end` (ISO text, as stored). */
export type PeriodRange = { from: LocalDate; to: LocalDate; start: string; end: string };

export function periodRange(from: LocalDate, to: LocalDate, timeZone: string): PeriodRange {
  return {
    from,
    to,
    start: new Date(startOfLocalDay(from, timeZone)).toISOString(),
    end: new Date(startOfLocalDay(addDays(to, 1), timeZone)).toISOString(),
  };
}

/**
 * Stretches of a span in which the shop's offset from UTC holds still: `[{ until, offsetMs }]`,
 * each ending at `until` (the last at the span's end). An instant's shop day is its UTC time
 * plus the offset of its stretch, which lets the database bucket rows by day with plain date
 * arithmetic. Offsets are read at every day start; where two differ, the change is found to
 * the second by bisection.
 */
export function offsetStretches(startMs: number, endMs: number, timeZone: string): { until: number; offsetMs: number }[] {
  const out: { until: number; offsetMs: number }[] = [];
  let current = zoneOffsetMs(startMs, timeZone);
  const step = 86_400_000;
  for (let t = startMs; t < endMs; t += step) {
    const next = Math.min(t + step, endMs);
    // The offset at the stretch's last second: one different from `current` means a change inside.
    let lo = t;
    let hi = next - 1000;
    if (hi <= lo || zoneOffsetMs(hi, timeZone) === current) continue;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (zoneOffsetMs(mid, timeZone) === current) lo = mid;
      else hi = mid;
    }
    out.push({ until: hi, offsetMs: current });
    current = zoneOffsetMs(hi, timeZone);
  }
  out.push({ until: endMs, offsetMs: current });
  return out;
}
