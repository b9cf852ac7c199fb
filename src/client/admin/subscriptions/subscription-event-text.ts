import { eventSentence, type EventContext, type EventLine } from '../../../shared/subscription-timeline.js';

/** The owner's words around a subscription's timeline (the sentences are shared/subscription-timeline.ts): who did it, and each action's result. */
export { eventSentence, type EventContext, type EventLine };
export type { EventSentence } from '../../../shared/subscription-timeline.js';

/** Who did it, as the owner reads it after "by": the schedule, the customer (signed in, or by an e-mail's link), or an admin by e-mail. */
export function actorText(actor: string, customerEmail: string): string {
  if (actor === 'system') return 'the shop, automatically';
  if (actor === 'customer') return 'the customer';
  if (actor === 'customer (e-mail link)') return 'the customer, from an e-mail’s link';
  if (actor.toLowerCase() === customerEmail.toLowerCase()) return `${actor} (the customer)`;
  return actor;
}

/** The context of a detail's events: its items' names and its orders' numbers. */
export function eventContextOf(sub: {
  items: readonly { variantId: string; name: string }[];
  cycles: readonly { orderId: string | null; orderNumber: string | null }[];
  firstOrder: { id: string; orderNumber: string | null };
}): EventContext {
  const orderNumbers = new Map<string, string | null>([[sub.firstOrder.id, sub.firstOrder.orderNumber]]);
  for (const c of sub.cycles) if (c.orderId) orderNumbers.set(c.orderId, c.orderNumber);
  return { items: sub.items, orderNumbers };
}

/**
 * A one-time item's name: the subscription's own item of that variant, else the newest "added"
 * event naming it (the detail carries extras by variant only), else its variant id.
 */
export function extraName(
  variantId: string,
  sub: {
    items: readonly { variantId: string; name: string }[];
    extras?: readonly { variantId: string; name: string }[];
    events: readonly Pick<EventLine, 'type' | 'data'>[];
  },
): string {
  const own = sub.extras?.find((e) => e.variantId === variantId)?.name ?? sub.items.find((i) => i.variantId === variantId)?.name;
  if (own) return own;
  const added = sub.events.find((e) => e.type === 'extra.added' && e.data.variantId === variantId);
  const name = added?.data.name;
  return typeof name === 'string' && name.trim() ? name.trim() : variantId;
}

type Plan = { enabled: boolean; intervals: readonly number[] } | null;
type ProductPlans = { plan: Plan; variants: readonly { id: string; plan: Plan }[] };

/**
 * The intervals a subscription may change to, as the server allows them (changes.ts): those every
 * item's plan offers now, its variant's own plan winning over its product's; none when any item's
 * plan is off or unknown. The current interval is always listed (keeping it is no change).
 */
export function offeredIntervals(
  items: readonly { productId: string; variantId: string }[],
  plansByProduct: ReadonlyMap<string, ProductPlans>,
  current: number,
): { intervals: number[]; changeable: boolean } {
  const plans = items.map((i) => {
    const p = plansByProduct.get(i.productId);
    if (!p) return null;
    return p.variants.find((v) => v.id === i.variantId)?.plan ?? p.plan;
  });
  const changeable = plans.length > 0 && plans.every((p) => p?.enabled);
  const common = changeable ? (plans[0]?.intervals ?? []).filter((w) => plans.every((p) => p?.intervals.includes(w))) : [];
  return {
    intervals: [...new Set([...common, current])].sort((a, b) => a - b),
    changeable: changeable && common.some((w) => w !== current),
  };
}

/** The status line after an action: what happened, and whether the customer was told. */
export function toldText(email: string, notified: boolean, emails = true): string {
  if (!emails) return 'No e-mail goes with this change.';
  return notified ? `${email} was e-mailed about it.` : `${email} was not e-mailed.`;
}

/** What Deliver now did, in the owner's words. */
export function deliveredText(d: { status: string; orderNumber: string | null; message: string | null }): string {
  if (d.status === 'paid') return d.orderNumber ? `Delivery ordered and paid: order #${d.orderNumber}.` : 'Delivery ordered and paid.';
  if (d.status === 'waiting_stock')
    return `Out of stock: nothing was charged; it is sent when the stock is back.${d.message ? ` ${d.message}` : ''}`;
  if (d.status === 'retrying' || d.status === 'needs_customer')
    return `The card could not be charged: the customer has a link to pay for this delivery.${d.message ? ` (${d.message})` : ''}`;
  return 'The delivery is being ordered.';
}
