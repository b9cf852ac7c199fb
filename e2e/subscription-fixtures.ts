import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, inject } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { settle } from './browser.js';
import { hashPassword } from '../src/server/accounts/password.js';
import { hashToken, newToken } from '../src/server/lib/tokens.js';
import { renewalDateText, subscriptionLineText } from '../src/shared/subscriptions.js';

/**
 * Subscriptions written straight into the worker's shop, as a paid checkout would have left them
 * (a user, a stored test card, the subscription, its item, the seeded laundry powder, and its
 * link's token hash), for the journeys that manage them; and what those journeys check on screen.
 */

export const PRODUCT = { id: 'laundry-powder', variantId: 'var_laundry-powder', name: 'Laundry Powder (2 lb)' };
const DAY_MS = 86_400_000;
const SHOTS_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

export function openShopDb(): Database.Database {
  return new Database(path.join(inject('dataDir'), 'shop.db'), { fileMustExist: true, timeout: 10_000 });
}

export type Subscriber = { userId: string; email: string; password: string; fullName: string };
export type Made = { id: string; token: string; everyWeeks: number; quantity: number; nextRenewalAt: string; deliveries: number };

/** A customer account that can sign in, and a stored test card (never a card number: a behaviour and the last four digits). */
export async function createSubscriber(label: string): Promise<Subscriber & { paymentMethodId: string }> {
  const stamp = `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const who = {
    userId: `user_e2e_sub_${stamp}`,
    email: `subscriber-${stamp}@example.com`,
    password: 'Refill-Pass-2026',
    fullName: 'Robin Refill',
  };
  const hash = await hashPassword(who.password);
  const at = new Date(Date.now() - 90 * DAY_MS).toISOString();
  const paymentMethodId = `pm_test_e2e_${stamp}`;
  const db = openShopDb();
  try {
    db.prepare(
      `insert into users (id, email, full_name, phone, role, password_hash, email_verified, loyalty_points, total_points_earned,
        shipping_address, billing_address, created_at, updated_at)
       values (?, ?, ?, null, 'client', ?, 1, 0, 0, null, null, ?, ?)`,
    ).run(who.userId, who.email, who.fullName, hash, at, at);
    db.prepare(`insert into test_payment_methods (id, behaviour, brand, last4, created_at) values (?, 'succeed', 'visa', '4242', ?)`).run(
      paymentMethodId,
      at,
    );
  } finally {
    db.close();
  }
  return { ...who, paymentMethodId };
}

/** An active subscription of the laundry powder, or of `product` (newer `createdDaysAgo` lists first), with one manage link. */
export function createSubscription(
  who: Subscriber & { paymentMethodId: string },
  {
    everyWeeks,
    quantity,
    createdDaysAgo,
    deliveries,
    product = PRODUCT,
  }: {
    everyWeeks: number;
    quantity: number;
    createdDaysAgo: number;
    deliveries: number;
    product?: { id: string; variantId: string; name: string };
  },
): Made {
  const id = `sub_e2e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const token = newToken();
  const created = new Date(Date.now() - createdDaysAgo * DAY_MS).toISOString();
  // Far enough ahead that the shop's schedule neither reminds nor renews while the journey runs.
  const nextRenewalAt = new Date(
    Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 20, 10),
  ).toISOString();
  const address = JSON.stringify({
    name: who.fullName,
    address: '12 Refill Lane',
    city: 'Portland',
    state: 'OR',
    zip: '97201',
    country: 'US',
    email: who.email,
  });
  const db = openShopDb();
  try {
    db.transaction(() => {
      db.prepare(
        `insert into subscriptions (id, user_id, email, status, every_weeks, discount_percent, later_discount_percent, later_from_delivery,
          deliveries, cycles_started, next_renewal_at, shipping_address, shipping_option_id, provider, customer_ref, payment_method_ref,
          payment_ref, first_order_id, consent_text, consent_at, manage_token_hash, failing_since, cancelled_at, cancel_reason,
          created_at, updated_at)
         values (?, ?, ?, 'active', ?, 10, null, null, ?, ?, ?, ?, 'standard', 'test', null, ?, null, ?, ?, ?, null, null, null, null, ?, ?)`,
      ).run(
        id,
        who.userId,
        who.email,
        everyWeeks,
        deliveries,
        deliveries,
        nextRenewalAt,
        address,
        who.paymentMethodId,
        `order_e2e_${id}`,
        `I agree to be charged for ${product.name}, ${subscriptionLineText(everyWeeks, 10).toLowerCase()}, until I cancel.`,
        created,
        created,
        created,
      );
      db.prepare('insert into subscription_items (subscription_id, product_id, variant_id, quantity) values (?, ?, ?, ?)').run(
        id,
        product.id,
        product.variantId,
        quantity,
      );
      db.prepare('insert into subscription_links (token_hash, subscription_id, created_at) values (?, ?, ?)').run(
        hashToken(token),
        id,
        created,
      );
    })();
  } finally {
    db.close();
  }
  return { id, token, everyWeeks, quantity, nextRenewalAt, deliveries };
}

/** A seeded variant's id by its SKU. */
export function variantIdOfSku(sku: string): string {
  const db = openShopDb();
  try {
    return (db.prepare('select id from product_variants where sku = ?').get(sku) as { id: string }).id;
  } finally {
    db.close();
  }
}

export function storedSubscription(id: string): {
  status: string;
  cancel_reason: string | null;
  cancelled_at: string | null;
  every_weeks: number;
  next_renewal_at: string;
  quantity: number;
  variant_id: string;
  shipping_address: string;
} {
  const db = openShopDb();
  try {
    return db
      .prepare(
        `select s.status, s.cancel_reason, s.cancelled_at, s.every_weeks, s.next_renewal_at, s.shipping_address, i.quantity, i.variant_id
           from subscriptions s join subscription_items i on i.subscription_id = s.id where s.id = ?`,
      )
      .get(id) as never;
  } finally {
    db.close();
  }
}

/** A picture of the screen as it is (a dialog is fixed to the screen: a full-page picture would draw it over the wrong part). */
export async function screenShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await settle(page);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

/** Nothing in the page or the open dialog is wider than the screen. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** What a subscription shows (the card's row, or the manage page): terms, status, items and its facts. */
export async function expectShown(at: Locator, sub: Made, status: 'Active' | 'Cancelled'): Promise<void> {
  await expect.poll(() => at.getByTestId('subscription-status').textContent()).toBe(status);
  expect(await at.getByTestId('subscription-terms').textContent()).toBe(subscriptionLineText(sub.everyWeeks, 10));
  expect(await at.getByTestId('subscription-item').allInnerTexts()).toEqual([`${PRODUCT.name} × ${sub.quantity}`]);
  expect(await at.getByTestId('subscription-deliveries').textContent()).toBe(
    sub.deliveries === 1 ? '1 delivery so far' : `${sub.deliveries} deliveries so far`,
  );
  if (status === 'Active') {
    expect(await at.getByTestId('subscription-next').textContent()).toBe(renewalDateText(sub.nextRenewalAt));
  } else {
    expect(await at.getByTestId('subscription-next').count()).toBe(0);
    await at.getByTestId('subscription-cancelled-on').waitFor();
  }
}
