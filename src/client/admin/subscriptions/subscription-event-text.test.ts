import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_MESSAGES } from '../../../shared/subscription-words.js';
import {
  actorText,
  deliveredText,
  eventContextOf,
  eventSentence,
  extraName,
  offeredIntervals,
  toldText,
  type EventContext,
} from './subscription-event-text.js';

const ctx: EventContext = eventContextOf({
  items: [
    { variantId: 'var_powder', name: 'Laundry Powder (2 lb)' },
    { variantId: 'var_lavender', name: 'Cleaner — Lavender' },
  ],
  cycles: [
    { orderId: 'order_r2', orderNumber: '1042' },
    { orderId: null, orderNumber: null },
  ],
  firstOrder: { id: 'order_first', orderNumber: '1001' },
});

const say = (type: string, data: Record<string, unknown> = {}) => eventSentence({ type, data }, ctx).text;

describe('the timeline in the owner’s words', () => {
  it('says each kind of event as a sentence, with its dates, items, orders and amounts', () => {
    expect(say('started', { orderId: 'order_first', everyWeeks: 4, discountPercent: 10 })).toBe('Started: every 4 weeks, 10% off');
    expect(say('reminded', { delivery: '2027-03-03T10:00:00.000Z', total: 2915 })).toBe(
      'Reminder sent for the delivery of March 3, 2027 ($29.15)',
    );
    expect(say('renewed', { cycle: 2, orderId: 'order_r2', delivery: '2027-03-03T10:00:00.000Z' })).toBe(
      'Renewed: order #1042, the delivery of March 3, 2027',
    );
    expect(say('renewal.failed', { attempt: 2, message: 'Your card was declined.' })).toBe(
      'Renewal failed (attempt 2): Your card was declined.',
    );
    expect(say('renewal.waiting_stock', { missing: 'Laundry Powder (2 lb)' })).toBe('Renewal waiting for stock: Laundry Powder (2 lb)');
    expect(say('skipped', { delivery: '2027-03-03T10:00:00.000Z', reason: SUBSCRIPTION_MESSAGES.skippedByCustomer })).toBe(
      'Skipped the delivery of March 3, 2027',
    );
    expect(say('skipped', { delivery: '2027-03-03T10:00:00.000Z', reason: 'the card could not be charged after 4 tries (declined)' })).toBe(
      'Skipped the delivery of March 3, 2027: the card could not be charged after 4 tries (declined)',
    );
    expect(say('paused', { until: '2027-05-02T10:00:00.000Z' })).toBe('Paused until May 2, 2027');
    expect(say('resumed', { nextDelivery: '2027-05-02T10:00:00.000Z' })).toBe('Resumed: next delivery May 2, 2027');
    expect(say('resumed', { nextDelivery: '2027-05-02T10:00:00.000Z', pauseEnded: true })).toBe('Pause ended: next delivery May 2, 2027');
    expect(say('delivered_now', { cycle: 3, wasDue: '2027-03-03T10:00:00.000Z' })).toBe('Delivered now (was due March 3, 2027)');
    expect(say('item.skipped', { variantId: 'var_powder', name: 'Laundry Powder (2 lb)' })).toBe(
      'Left out of the next delivery: Laundry Powder (2 lb)',
    );
    expect(say('item.unskipped', { variantId: 'var_powder', name: null })).toBe('Back in the next delivery: Laundry Powder (2 lb)');
    expect(say('extra.added', { variantId: 'var_glass', name: 'Glass Cleaner', quantity: 2, unitPriceCents: 700 })).toBe(
      'One-time item added: Glass Cleaner × 2',
    );
    expect(say('extra.removed', { variantId: 'var_glass', name: 'Glass Cleaner' })).toBe('One-time item removed: Glass Cleaner');
    expect(say('address.changed', { everywhere: false, city: 'Portland' })).toBe('Address changed: ships to Portland');
    expect(say('address.changed', { everywhere: true, city: 'Bend' })).toBe(
      'Address changed: ships to Bend, for all their subscriptions and their account',
    );
    expect(say('card.updated', { brand: 'visa', last4: '4242', before: { brand: 'mastercard', last4: '4444' } })).toBe(
      'Card updated: Visa ending 4242 (was Mastercard ending 4444)',
    );
    expect(say('card.updated', { brand: 'Visa', last4: '4242', before: null })).toBe('Card updated: Visa ending 4242');
    expect(say('cancelled', { reason: 'Moved abroad', emailed: false })).toBe('Cancelled: “Moved abroad” (the customer was not e-mailed)');
    expect(say('cancelled', { reason: null, emailed: true })).toBe('Cancelled');
  });

  it('says what a change changed: the interval, the day, quantities and swaps', () => {
    expect(say('changed', { everyWeeks: { from: 4, to: 8 }, items: [] })).toBe('Changed: every 4 → 8 weeks');
    expect(
      say('changed', {
        nextDelivery: { from: '2027-03-03T10:00:00.000Z', to: '2027-03-10T10:00:00.000Z' },
        items: [
          { variantId: 'var_powder', quantity: { from: 1, to: 3 } },
          { variantId: 'var_gone', quantity: { from: 1, to: 1 }, swapTo: 'var_lavender' },
        ],
      }),
    ).toBe('Changed: next delivery March 3, 2027 → March 10, 2027; Laundry Powder (2 lb) × 1 → 3; an item swapped for Cleaner — Lavender');
    expect(say('changed', {})).toBe('Changed');
  });

  it('keeps the terms agreed again with a reactivation, to show folded', () => {
    const s = eventSentence(
      { type: 'reactivated', data: { nextDelivery: '2027-04-01T10:00:00.000Z', consentText: 'Every 4 weeks: …', consentAt: 'x' } },
      ctx,
    );
    expect(s).toEqual({ text: 'Reactivated (terms agreed again): next delivery April 1, 2027', consentText: 'Every 4 weeks: …' });
    expect(eventSentence({ type: 'reactivated', data: {} }, ctx)).toEqual({ text: 'Reactivated (terms agreed again)' });
  });

  it('says a price notice from its words or its figures', () => {
    expect(say('price.notice', { message: 'Laundry Powder goes to $14.99 from April 1' })).toBe(
      'Price notice: Laundry Powder goes to $14.99 from April 1',
    );
    expect(say('price.notice', { variantId: 'var_powder', fromCents: 1349, toCents: 1499, effectiveAt: '2027-04-01T00:00:00.000Z' })).toBe(
      'Price notice: Laundry Powder (2 lb) $13.49 → $14.99 from April 1, 2027',
    );
    expect(say('price.notice', {})).toBe('Price notice sent');
  });

  it('never throws: an unknown type, missing or odd data still read as a sentence', () => {
    expect(say('loyalty.bonus', { points: 5 })).toBe('Recorded: loyalty.bonus');
    expect(say('')).toBe('Recorded: an event');
    for (const type of [
      'started',
      'reminded',
      'renewed',
      'renewal.failed',
      'skipped',
      'changed',
      'paused',
      'resumed',
      'card.updated',
      'cancelled',
    ])
      for (const data of [{}, { everyWeeks: 'four', items: 'x', delivery: 'not a date', before: 7, nextDelivery: { from: 1 } }])
        expect(typeof say(type, data)).toBe('string');
    expect(eventSentence({ type: 'paused', data: null as unknown as Record<string, unknown> }, ctx).text).toBe('Paused');
    expect(say('renewed', { orderId: 'order_unknown' })).toBe('Renewed: its order');
    expect(say('renewed', {})).toBe('Renewed: delivery ordered');
  });
});

describe('who did it', () => {
  it('names the schedule, the customer and an admin', () => {
    expect(actorText('system', 'sam@example.com')).toBe('the shop, automatically');
    expect(actorText('customer (e-mail link)', 'sam@example.com')).toBe('the customer, from an e-mail’s link');
    expect(actorText('Sam@Example.com', 'sam@example.com')).toBe('Sam@Example.com (the customer)');
    expect(actorText('admin@example.com', 'sam@example.com')).toBe('admin@example.com');
    expect(actorText('admin@example.com as sam@example.com', 'sam@example.com')).toBe('admin@example.com as sam@example.com');
  });
});

describe('the actions’ helpers', () => {
  it('names a one-time item by the subscription’s item, else the event that added it, else its id', () => {
    const sub = {
      items: [{ variantId: 'var_powder', name: 'Laundry Powder (2 lb)' }],
      events: [
        { type: 'extra.added', data: { variantId: 'var_glass', name: 'Glass Cleaner (new)', quantity: 1 } },
        { type: 'extra.added', data: { variantId: 'var_glass', name: 'Glass Cleaner (old)', quantity: 2 } },
      ],
    };
    expect(extraName('var_powder', sub)).toBe('Laundry Powder (2 lb)');
    expect(extraName('var_glass', sub)).toBe('Glass Cleaner (new)');
    expect(extraName('var_mop', sub)).toBe('var_mop');
  });

  it('offers the intervals every item’s plan offers, the variant’s own plan first; none when a plan is off', () => {
    const plans = new Map([
      ['powder', { plan: { enabled: true, intervals: [2, 4, 8] }, variants: [{ id: 'var_powder', plan: null }] }],
      [
        'cleaner',
        {
          plan: { enabled: true, intervals: [2, 4, 6, 8] },
          variants: [
            { id: 'var_lavender', plan: { enabled: true, intervals: [4, 8, 12] } },
            { id: 'var_citrus', plan: { enabled: false, intervals: [4] } },
          ],
        },
      ],
    ]);
    const powder = { productId: 'powder', variantId: 'var_powder' };
    expect(offeredIntervals([powder], plans, 4)).toEqual({ intervals: [2, 4, 8], changeable: true });
    expect(offeredIntervals([powder, { productId: 'cleaner', variantId: 'var_lavender' }], plans, 4)).toEqual({
      intervals: [4, 8],
      changeable: true,
    });
    // A variant's plan off: the current interval only, nothing to change to.
    expect(offeredIntervals([powder, { productId: 'cleaner', variantId: 'var_citrus' }], plans, 4)).toEqual({
      intervals: [4],
      changeable: false,
    });
    // A product whose plans are not known (not read, or removed): the same.
    expect(offeredIntervals([{ productId: 'gone', variantId: 'var_gone' }], plans, 6)).toEqual({ intervals: [6], changeable: false });
    // The current interval no longer offered is still listed (keeping it is no change).
    expect(offeredIntervals([powder], plans, 6)).toEqual({ intervals: [2, 4, 6, 8], changeable: true });
  });

  it('says whether the customer was told, and what Deliver now did', () => {
    expect(toldText('sam@example.com', true)).toBe('sam@example.com was e-mailed about it.');
    expect(toldText('sam@example.com', false)).toBe('sam@example.com was not e-mailed.');
    expect(deliveredText({ status: 'paid', orderNumber: '1050', message: null })).toBe('Delivery ordered and paid: order #1050.');
    expect(deliveredText({ status: 'waiting_stock', orderNumber: null, message: null })).toMatch(/^Out of stock: nothing was charged/);
    expect(deliveredText({ status: 'retrying', orderNumber: '1051', message: 'Declined' })).toMatch(/could not be charged.*\(Declined\)$/);
    expect(deliveredText({ status: 'scheduled', orderNumber: null, message: null })).toBe('The delivery is being ordered.');
  });
});
