import { formatCents } from './money.js';
import { cardText } from './subscription-card.js';
import { everyWeeksText, renewalDateText, SUBSCRIPTION_MESSAGES } from './subscription-words.js';

/**
 * A subscription's timeline in words (issue [5/8]): one sentence per event as the server wrote it
 * (src/server/subscriptions/events.ts), the same for the owner's detail and the customer's history.
 * Pure; an event of a type this does not know, or with data it does not expect, still reads as a
 * sentence.
 */

/** What an event is read with: the subscription's items (names by variant) and its orders' numbers. */
export type EventContext = {
  items: readonly { variantId: string; name: string }[];
  /** Order id → its number, from the renewals and the first order. */
  orderNumbers: ReadonlyMap<string, string | null>;
};

export type EventLine = { id: string; type: string; actor: string; data: Record<string, unknown>; createdAt: string };

/** A sentence, and for a reactivation the terms agreed again (shown folded under it). */
export type EventSentence = { text: string; consentText?: string };

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A date the server wrote (ISO) as the e-mails write it, or null when it is not one. */
function day(v: unknown): string | null {
  const s = str(v);
  return s && Number.isFinite(Date.parse(s)) ? renewalDateText(s) : null;
}

function itemName(ctx: EventContext, variantId: unknown, given?: unknown): string {
  return str(given) ?? ctx.items.find((i) => i.variantId === variantId)?.name ?? 'an item';
}

function orderText(ctx: EventContext, orderId: unknown): string | null {
  const id = str(orderId);
  if (!id) return null;
  const number = ctx.orderNumbers.get(id);
  return number ? `order #${number}` : 'its order';
}

const weeks = (n: number) => (n === 1 ? '1 week' : `${n} weeks`);

/** "every 4 → 8 weeks", "next delivery March 3 → March 10", "Laundry Powder 1 → 2": what a change changed. */
function changes(data: Record<string, unknown>, ctx: EventContext): string[] {
  const parts: string[] = [];
  const every = obj(data.everyWeeks);
  const [fromW, toW] = [num(every?.from), num(every?.to)];
  if (fromW !== null && toW !== null) parts.push(`every ${fromW} → ${weeks(toW)}`);
  const next = obj(data.nextDelivery);
  const [fromD, toD] = [day(next?.from), day(next?.to)];
  if (fromD && toD) parts.push(`next delivery ${fromD} → ${toD}`);
  for (const raw of Array.isArray(data.items) ? data.items : []) {
    const item = obj(raw);
    if (!item) continue;
    const q = obj(item.quantity);
    const [fromQ, toQ] = [num(q?.from), num(q?.to)];
    const swapTo = str(item.swapTo);
    const name = itemName(ctx, item.variantId);
    if (swapTo) parts.push(`${name} swapped for ${itemName(ctx, swapTo)}`);
    if (fromQ !== null && toQ !== null && fromQ !== toQ) parts.push(`${swapTo ? itemName(ctx, swapTo) : name} × ${fromQ} → ${toQ}`);
  }
  return parts;
}

/** The one sentence of an event, in the owner's words; an unknown type or odd data never throws. */
export function eventSentence(event: Pick<EventLine, 'type' | 'data'>, ctx: EventContext): EventSentence {
  const d = obj(event.data) ?? {};
  switch (event.type) {
    case 'started': {
      const w = num(d.everyWeeks);
      const pct = num(d.discountPercent);
      const terms = w === null ? '' : `: ${everyWeeksText(w).toLowerCase()}${pct ? `, ${pct}% off` : ''}`;
      return { text: `Started${terms}` };
    }
    case 'reminded': {
      const when = day(d.delivery);
      const total = num(d.total);
      return {
        text: `Reminder sent${when ? ` for the delivery of ${when}` : ''}${total !== null ? ` (${formatCents(total)})` : ''}`,
      };
    }
    case 'renewed': {
      const order = orderText(ctx, d.orderId);
      const when = day(d.delivery);
      return { text: `Renewed: ${order ?? 'delivery ordered'}${when ? `, the delivery of ${when}` : ''}` };
    }
    case 'renewal.failed': {
      const attempt = num(d.attempt);
      const why = str(d.message);
      return { text: `Renewal failed${attempt ? ` (attempt ${attempt})` : ''}${why ? `: ${why}` : ''}` };
    }
    case 'renewal.waiting_stock': {
      const missing = str(d.missing);
      return { text: `Renewal waiting for stock${missing ? `: ${missing}` : ''}` };
    }
    case 'skipped': {
      const when = day(d.delivery);
      const reason = str(d.reason);
      // The customer's own skip needs no reason; the schedule's (out of stock, a card that kept failing) says why.
      const why = reason && reason !== SUBSCRIPTION_MESSAGES.skippedByCustomer ? `: ${reason}` : '';
      return { text: `Skipped the delivery${when ? ` of ${when}` : ''}${why}` };
    }
    case 'item.skipped':
      return { text: `Left out of the next delivery: ${itemName(ctx, d.variantId, d.name)}` };
    case 'item.unskipped':
      return { text: `Back in the next delivery: ${itemName(ctx, d.variantId, d.name)}` };
    case 'extra.added': {
      const q = num(d.quantity);
      return { text: `One-time item added: ${itemName(ctx, d.variantId, d.name)}${q !== null ? ` × ${q}` : ''}` };
    }
    case 'extra.removed':
      return { text: `One-time item removed: ${itemName(ctx, d.variantId, d.name)}` };
    case 'changed': {
      const parts = changes(d, ctx);
      return { text: parts.length ? `Changed: ${parts.join('; ')}` : 'Changed' };
    }
    case 'paused': {
      const until = day(d.until);
      return { text: until ? `Paused until ${until}` : 'Paused' };
    }
    case 'resumed': {
      const next = day(d.nextDelivery);
      const head = d.pauseEnded === true ? 'Pause ended' : 'Resumed';
      return { text: next ? `${head}: next delivery ${next}` : head };
    }
    case 'delivered_now': {
      const was = day(d.wasDue);
      return { text: `Delivered now${was ? ` (was due ${was})` : ''}` };
    }
    case 'address.changed': {
      const city = str(d.city);
      const all = d.everywhere === true ? ', for all their subscriptions and their account' : '';
      return { text: `Address changed${city ? `: ships to ${city}` : ''}${all}` };
    }
    case 'card.updated': {
      const brand = str(d.brand);
      const last4 = str(d.last4);
      const before = obj(d.before);
      const was =
        before && str(before.brand) && str(before.last4)
          ? ` (was ${cardText({ brand: str(before.brand)!, last4: str(before.last4)! })})`
          : '';
      return { text: brand && last4 ? `Card updated: ${cardText({ brand, last4 })}${was}` : 'Card updated' };
    }
    case 'price.notice': {
      // Written by the price-change notices: the words the customer was sent, else what changed.
      const said = str(d.message) ?? str(d.text);
      if (said) return { text: `Price notice: ${said}` };
      const name = itemName(ctx, d.variantId, d.name);
      const [from, to] = [num(d.fromCents) ?? num(d.oldPriceCents), num(d.toCents) ?? num(d.newPriceCents)];
      const when = day(d.effectiveAt) ?? day(d.delivery);
      const change = from !== null && to !== null ? ` ${formatCents(from)} → ${formatCents(to)}` : '';
      return { text: change || when ? `Price notice: ${name}${change}${when ? ` from ${when}` : ''}` : 'Price notice sent' };
    }
    case 'cancelled': {
      const reason = str(d.reason);
      const quiet = d.emailed === false ? ' (the customer was not e-mailed)' : '';
      return { text: `Cancelled${reason ? `: “${reason}”` : ''}${quiet}` };
    }
    case 'reactivated': {
      const next = day(d.nextDelivery);
      const consent = str(d.consentText);
      return {
        text: `Reactivated (terms agreed again)${next ? `: next delivery ${next}` : ''}`,
        ...(consent ? { consentText: consent } : {}),
      };
    }
    default:
      return { text: `Recorded: ${str(event.type) ?? 'an event'}` };
  }
}

/** The customer's history: the same sentence, read without the owner's order numbers. */
export function timelineSentence(event: Pick<EventLine, 'type' | 'data'>, items: EventContext['items'] = []): string {
  return eventSentence(event, { items, orderNumbers: new Map() }).text;
}
