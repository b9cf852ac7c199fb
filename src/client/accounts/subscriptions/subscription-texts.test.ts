import { describe, expect, it } from 'vitest';
import {
  CancelSubscriptionInput,
  ChangeSubscriptionInput,
  reactivationTermsText,
  type SubscriptionView,
} from '../../../shared/subscriptions.js';
import { timelineSentence } from '../../../shared/subscription-timeline.js';
import { dialogOfHash } from './subscription-actions.js';
import {
  CANCEL_REASON_MAX,
  cancelBody,
  dayFromNow,
  deliveriesText,
  intervalOption,
  pausedToast,
  resumedToast,
  replaceSubscription,
  skipNote,
  skippedToast,
  statusText,
  subscriptionFacts,
  subscriptionName,
} from './subscription-texts.js';

const active: SubscriptionView = {
  id: 'sub_a',
  status: 'active',
  everyWeeks: 4,
  discountPercent: 10,
  terms: 'Every 4 weeks · 10% off',
  items: [
    {
      productId: 'laundry-powder',
      variantId: 'var_laundry-powder',
      name: 'Laundry Powder',
      quantity: 2,
      versions: [],
      skipNext: false,
      unitPriceCents: 1349,
    },
  ],
  extras: [],
  nextDeliveryTotalCents: 2915,
  card: { brand: 'Visa', last4: '4242' },
  nextRenewalAt: '2026-12-27T10:00:00.000Z',
  intervals: [4, 8],
  address: null,
  deliveries: 2,
  createdAt: '2026-10-01T10:00:00.000Z',
  cancelledAt: null,
};

describe('subscriptionFacts', () => {
  it('gives an active subscription its next delivery (the renewal clock is UTC) and its deliveries so far', () => {
    expect(subscriptionFacts(active)).toEqual([
      { label: 'Next delivery', value: 'December 27, 2026', testId: 'subscription-next' },
      { label: 'Next delivery total', value: '$29.15 with shipping and tax', testId: 'subscription-total' },
      { label: 'Deliveries', value: '2 deliveries so far', testId: 'subscription-deliveries' },
    ]);
  });

  it('gives a cancelled one no next date, and the day it was cancelled', () => {
    const cancelled = { ...active, status: 'cancelled' as const, nextRenewalAt: null, cancelledAt: '2026-12-01T23:30:00.000Z' };
    expect(subscriptionFacts(cancelled).map((f) => [f.label, f.value])).toEqual([
      ['Deliveries', '2 deliveries so far'],
      ['Cancelled on', 'December 1, 2026'],
    ]);
  });

  it('shows no next date for a cancelled subscription even if the server still sent one', () => {
    const labels = subscriptionFacts({ ...active, status: 'cancelled', cancelledAt: null }).map((f) => f.label);
    expect(labels).toEqual(['Deliveries']);
  });
});

describe('the words', () => {
  it('counts deliveries in words', () => {
    expect(deliveriesText(0)).toBe('No deliveries yet');
    expect(deliveriesText(1)).toBe('1 delivery so far');
    expect(deliveriesText(12)).toBe('12 deliveries so far');
  });

  it('reads each status as the shared table words it', () => {
    expect(statusText('active')).toBe('Active');
    expect(statusText('payment_failing')).toBe('Payment failing');
    expect(statusText('cancelled')).toBe('Cancelled');
  });

  it('names a subscription by its first item and how many more', () => {
    expect(subscriptionName(active)).toBe('Laundry Powder × 2');
    const two = {
      ...active,
      items: [
        ...active.items,
        { productId: 'c', variantId: 'v', name: 'Cleaner', quantity: 1, versions: [], skipNext: false, unitPriceCents: 899 },
      ],
    };
    expect(subscriptionName(two)).toBe('Laundry Powder × 2 and 1 more');
    expect(subscriptionName({ items: [] })).toBe('subscription');
  });
});

describe('the cancel request', () => {
  it('leaves out a blank reason and trims a given one', () => {
    expect(cancelBody(undefined)).toEqual({});
    expect(cancelBody('   ')).toEqual({});
    expect(cancelBody('  Too much powder \n')).toEqual({ reason: 'Too much powder' });
  });

  it('sends what the server accepts, and caps the reason where the server does', () => {
    expect(CancelSubscriptionInput.safeParse(cancelBody('Moving abroad')).success).toBe(true);
    expect(CancelSubscriptionInput.safeParse(cancelBody('x'.repeat(CANCEL_REASON_MAX))).success).toBe(true);
    expect(CancelSubscriptionInput.safeParse(cancelBody('x'.repeat(CANCEL_REASON_MAX + 1))).success).toBe(false);
  });
});

describe('replaceSubscription', () => {
  it("puts the server's answer in place, keeping the list's order and the others as they were", () => {
    const other = { ...active, id: 'sub_b' };
    const cancelled = { ...active, status: 'cancelled' as const, nextRenewalAt: null, cancelledAt: '2026-12-01T10:00:00.000Z' };
    const list = [other, active];
    const next = replaceSubscription(list, cancelled);
    expect(next.map((s) => [s.id, s.status])).toEqual([
      ['sub_b', 'active'],
      ['sub_a', 'cancelled'],
    ]);
    expect(next[0]).toBe(other);
    expect(list[1]).toBe(active);
  });
});

describe('skip and change words', () => {
  it('says which delivery is skipped and when the next comes, an interval later', () => {
    expect(skipNote('2026-12-19T10:00:00.000Z', 4)).toBe(
      'Your delivery of December 19, 2026 is skipped: nothing is charged or sent for it. The next one comes on January 16, 2027.',
    );
    expect(skippedToast('2027-01-16T10:00:00.000Z')).toBe('Delivery skipped. Your next one comes on January 16, 2027.');
    expect(intervalOption(1)).toBe('Every week');
    expect(intervalOption(6)).toBe('Every 6 weeks');
  });

  it('pause and resume say the day', () => {
    expect(pausedToast('2027-01-13T10:00:00.000Z')).toBe('Subscription paused until January 13, 2027.');
    expect(resumedToast('2026-12-05T10:00:00.000Z')).toBe('Subscription resumed. Your next delivery comes on December 5, 2026.');
    expect(dayFromNow(1, new Date('2026-12-31T23:30:00.000Z'))).toBe('2027-01-01');
    expect(
      subscriptionFacts({ status: 'paused', nextRenewalAt: '2027-01-13T10:00:00.000Z', deliveries: 1, cancelledAt: null })[0],
    ).toMatchObject({ label: 'Deliveries resume on', value: 'January 13, 2027' });
  });

  it('opens only the dialogs an e-mail link names', () => {
    expect(dialogOfHash('#skip')).toBe('skip');
    expect(dialogOfHash('#change')).toBe('change');
    expect(dialogOfHash('#cancel')).toBe('cancel');
    expect(dialogOfHash('#pause')).toBe('pause');
    expect(dialogOfHash('')).toBeNull();
    expect(dialogOfHash('#subscriptions')).toBeNull();
  });

  it('the change schema refuses what the server would', () => {
    expect(ChangeSubscriptionInput.safeParse({}).success).toBe(false);
    expect(ChangeSubscriptionInput.safeParse({ everyWeeks: 0 }).success).toBe(false);
    expect(ChangeSubscriptionInput.safeParse({ items: [{ variantId: 'v', quantity: 100 }] }).success).toBe(false);
    expect(ChangeSubscriptionInput.safeParse({ everyWeeks: 6, items: [{ variantId: 'v', quantity: 3 }] }).success).toBe(true);
  });
});

describe('timelineSentence', () => {
  it('says each event in words, and anything unknown without failing', () => {
    expect(timelineSentence({ type: 'paused', data: { until: '2027-01-05T10:00:00.000Z' } })).toContain('January 5, 2027');
    expect(timelineSentence({ type: 'changed', data: { everyWeeks: { from: 4, to: 8 }, items: [] } })).toBe('Changed: every 4 → 8 weeks');
    expect(timelineSentence({ type: 'extra.added', data: { name: 'Glass Cleaner', quantity: 2 } })).toBe(
      'One-time item added: Glass Cleaner × 2',
    );
    expect(timelineSentence({ type: 'card.updated', data: { brand: 'Visa', last4: '4242' } })).toBe('Card updated: Visa ending 4242');
    expect(timelineSentence({ type: 'cancelled', data: { reason: 'Too much' } })).toBe('Cancelled: “Too much”');
    expect(timelineSentence({ type: 'renewed', data: { delivery: 'not a date' } })).toBe('Renewed: delivery ordered');
    expect(timelineSentence({ type: 'something.new', data: {} })).toBe('Recorded: something.new');
  });
});

describe('reactivationTermsText', () => {
  it('says what is charged, how often, to which card and from when', () => {
    expect(
      reactivationTermsText({
        items: [{ name: 'Laundry Powder', quantity: 2, unitPriceCents: 1349 }],
        discountPercent: 10,
        everyWeeks: 4,
        firstDeliveryAt: '2026-12-27T10:00:00.000Z',
        card: { brand: 'Visa', last4: '4242' },
      }).split('\n'),
    ).toEqual([
      'Every 4 weeks: Laundry Powder × 2.',
      "We charge $26.98 for each delivery (today's prices less 10%), plus shipping and tax as on each order, to the Visa card ending 4242.",
      'It continues every 4 weeks until you cancel. First delivery: December 27, 2026.',
      'Cancel any time online from your account or the link in your e-mails.',
    ]);
  });
});
