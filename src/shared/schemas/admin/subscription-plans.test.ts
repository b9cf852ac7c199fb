import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_LIMITS, SUBSCRIPTION_MESSAGES } from '../../subscriptions.js';
import {
  intervalsFromText,
  intervalsText,
  planFormValues,
  planTermsText,
  SUBSCRIPTION_SETTINGS_MESSAGES,
  SubscriptionPlanForm,
  SubscriptionSettingsForm,
} from './subscription-plans.js';

const form = planFormValues(null);
const firstMessage = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) => r.error?.issues[0];

describe('the plan form (the text the owner types, read by the server’s schema)', () => {
  it('starts a product without a plan switched off, at the common terms', () => {
    expect(form).toEqual({
      enabled: false,
      intervals: '2, 4, 6, 8',
      discountPercent: '10',
      laterOn: false,
      laterDiscountPercent: '',
      laterFromDelivery: '',
    });
  });

  it('reads a comma list of weeks into the body, sorted and once each; the later pair only when ticked', () => {
    const body = SubscriptionPlanForm.parse({
      ...form,
      enabled: true,
      intervals: ' 8, 4,4 2 ',
      laterOn: false,
      laterDiscountPercent: '50',
      laterFromDelivery: '3',
    });
    expect(body).toEqual({ enabled: true, intervals: [2, 4, 8], discountPercent: 10, laterDiscountPercent: null, laterFromDelivery: null });
    expect(SubscriptionPlanForm.parse({ ...form, laterOn: true, laterDiscountPercent: '15', laterFromDelivery: '4' })).toMatchObject({
      laterDiscountPercent: 15,
      laterFromDelivery: 4,
    });
  });

  it.each([
    ['no interval', { intervals: ' , ' }, 'intervals', SUBSCRIPTION_MESSAGES.intervalsRequired],
    ['a word for an interval', { intervals: '2, monthly' }, 'intervals', SUBSCRIPTION_MESSAGES.intervalsRequired],
    ['53 weeks', { intervals: '4, 53' }, 'intervals', SUBSCRIPTION_MESSAGES.intervalsRequired],
    ['an empty discount', { discountPercent: '' }, 'discountPercent', SUBSCRIPTION_MESSAGES.discountRange],
    ['a discount over 100%', { discountPercent: '120' }, 'discountPercent', SUBSCRIPTION_MESSAGES.discountRange],
    ['a negative discount', { discountPercent: '-5' }, 'discountPercent', SUBSCRIPTION_MESSAGES.discountRange],
    [
      'a later discount from delivery 1',
      { laterOn: true, laterDiscountPercent: '15', laterFromDelivery: '1' },
      'laterFromDelivery',
      SUBSCRIPTION_MESSAGES.laterFrom,
    ],
    [
      'a later discount without its delivery',
      { laterOn: true, laterDiscountPercent: '15', laterFromDelivery: '' },
      'laterFromDelivery',
      'Give both',
    ],
  ])('refuses %s at its field, with the server’s words', (_name, change, path, message) => {
    const issue = firstMessage(SubscriptionPlanForm.safeParse({ ...form, ...change }));
    // A bad week is named by its place in the list (intervals.1); the form shows it under the list's field.
    expect(issue?.path[0]).toBe(path);
    expect(issue?.message).toContain(message);
  });

  it('starts a stored plan from its own terms', () => {
    expect(
      planFormValues({ enabled: true, intervals: [4], discountPercent: 10, laterDiscountPercent: 15, laterFromDelivery: 4 }),
    ).toMatchObject({ enabled: true, intervals: '4', laterOn: true, laterDiscountPercent: '15', laterFromDelivery: '4' });
  });

  it('splits on commas, spaces and semicolons, keeping junk as NaN for the schema to refuse', () => {
    expect(intervalsFromText('2,4;6 8')).toEqual([2, 4, 6, 8]);
    expect(intervalsFromText('')).toEqual([]);
    expect(intervalsFromText('x')).toEqual([NaN]);
  });
});

describe('the words of a plan', () => {
  it('says the intervals as a person would', () => {
    expect(intervalsText([4])).toBe('Every 4 weeks');
    expect(intervalsText([1])).toBe('Every week');
    expect(intervalsText([2, 4, 6, 8])).toBe('Every 2, 4, 6 or 8 weeks');
    expect(intervalsText([1, 2])).toBe('Every week or 2 weeks');
  });

  it('says the discount and the later one', () => {
    expect(planTermsText({ intervals: [2, 4], discountPercent: 10, laterDiscountPercent: 15, laterFromDelivery: 4 })).toBe(
      'Every 2 or 4 weeks · 10% off · 15% off from the 4th delivery',
    );
    expect(planTermsText({ intervals: [4], discountPercent: 0, laterDiscountPercent: null, laterFromDelivery: null })).toBe(
      'Every 4 weeks · no discount',
    );
  });
});

describe('the subscription settings form', () => {
  it('reads the days as typed', () => {
    expect(SubscriptionSettingsForm.parse({ freeShipping: true, skipOutOfStockAfterDays: ' 21 ' })).toEqual({
      freeShipping: true,
      skipOutOfStockAfterDays: 21,
    });
  });

  it.each(['', '0', '61', '2.5', 'ten'])('refuses %j days with one sentence', (days) => {
    const issue = firstMessage(SubscriptionSettingsForm.safeParse({ freeShipping: false, skipOutOfStockAfterDays: days }));
    expect(issue?.path.join('.')).toBe('skipOutOfStockAfterDays');
    expect(issue?.message).toBe(SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays);
  });

  it('takes the default the renewal engine uses', () => {
    expect(
      SubscriptionSettingsForm.safeParse({ freeShipping: false, skipOutOfStockAfterDays: String(SUBSCRIPTION_LIMITS.defaultSkipAfterDays) })
        .success,
    ).toBe(true);
  });
});
