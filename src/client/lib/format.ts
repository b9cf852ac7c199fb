import { formatCents } from '../../shared/money.js';

/**
 * A date formatter built on its first use, not when this module loads: a page's first Intl
 * formatter makes the browser load its calendar data, some 40 ms of a start-up task on this
 * machine (160 ms on Lighthouse's phone), which pages that show no date (the checkout) never need.
 */
function lazyFormat(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= new Intl.DateTimeFormat('en-US', options));
}

const dateFormats = {
  /** "Mar 5, 2026" */
  medium: lazyFormat({ dateStyle: 'medium' }),
  /** "March 5, 2026" */
  long: lazyFormat({ dateStyle: 'long' }),
};
/** "Mar 5, 2026, 3:04 PM" */
const dateTimeFormat = lazyFormat({ dateStyle: 'medium', timeStyle: 'short' });

function formatWith(format: Intl.DateTimeFormat, iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : format.format(d);
}

const zoned = new Map<string, Intl.DateTimeFormat>();

/** "Mar 5, 2026" as the day is where `timeZone` is (the shop's calendar), not where this browser is. */
export function formatDateIn(iso: string | null | undefined, timeZone: string): string {
  let format = zoned.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone });
    } catch {
      format = dateFormats.medium();
    }
    zoned.set(timeZone, format);
  }
  return formatWith(format, iso);
}

/** "Mar 5, 2026" (medium, the default) or "March 5, 2026" (long); '—' for a missing or unreadable date. */
export function formatDate(iso: string | null | undefined, style: keyof typeof dateFormats = 'medium'): string {
  return formatWith(dateFormats[style](), iso);
}

/** "Mar 5, 2026, 3:04 PM"; '—' for a missing or unreadable date. */
export function formatDateTime(iso: string | null | undefined): string {
  return formatWith(dateTimeFormat(), iso);
}

const dayFormats = {
  /** "Nov 25" */
  short: lazyFormat({ month: 'short', day: 'numeric', timeZone: 'UTC' }),
  /** "Wed, Nov 25, 2026" */
  long: lazyFormat({ weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
};

/** A calendar day ("2026-11-25", as the order overview counts the shop's days): "Nov 25" or "Wed, Nov 25, 2026". */
export function formatDay(day: string, style: keyof typeof dayFormats = 'short'): string {
  return formatWith(dayFormats[style](), `${day}T00:00:00Z`);
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Shipping reads FREE when it costs nothing. */
export function shippingText(cents: number): string {
  return cents === 0 ? 'FREE' : formatCents(cents);
}
