import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AuditBy } from '../audit/audit.js';
import { readSettings, writeSettings } from '../content/admin.js';
import {
  DEFAULT_SUBSCRIPTION_SETTINGS,
  SUBSCRIPTION_SETTINGS_LIMITS,
  type SubscriptionSettings,
  type SubscriptionSettingsInput,
} from '../../shared/schemas/admin/subscription-plans.js';

/** The owner's shop-wide subscription settings, in the `settings` table (key/value). */
export const SUBSCRIPTION_SETTING_KEYS = {
  /** 'true': renewal orders ship free, whatever the shipping option would charge. Default 'false'. */
  freeShipping: 'subscriptions.free_shipping',
  /** A renewal waiting for stock this many days is skipped (1–60). Default SUBSCRIPTION_LIMITS.defaultSkipAfterDays. */
  skipOutOfStockAfterDays: 'subscriptions.skip_out_of_stock_after_days',
} as const;

function skipDaysOf(stored: string | undefined): number {
  if (stored === undefined || !/^\d+$/.test(stored.trim())) return DEFAULT_SUBSCRIPTION_SETTINGS.skipOutOfStockAfterDays;
  const days = Number(stored);
  return days >= SUBSCRIPTION_SETTINGS_LIMITS.minSkipAfterDays && days <= SUBSCRIPTION_SETTINGS_LIMITS.maxSkipAfterDays
    ? days
    : DEFAULT_SUBSCRIPTION_SETTINGS.skipOutOfStockAfterDays;
}

/**
 * The settings as the renewal engine and the back office read them: a missing or unreadable value
 * (typed into the database by hand) reads as its default, never as a failure.
 */
export async function readSubscriptionSettings(db: Kysely<Database>): Promise<SubscriptionSettings> {
  const stored = await readSettings(db, Object.values(SUBSCRIPTION_SETTING_KEYS));
  return {
    freeShipping: stored[SUBSCRIPTION_SETTING_KEYS.freeShipping]?.trim() === 'true',
    skipOutOfStockAfterDays: skipDaysOf(stored[SUBSCRIPTION_SETTING_KEYS.skipOutOfStockAfterDays]),
  };
}

/** Saves the settings given (either or both), audited as `settings.changed` naming the keys that changed. */
export async function saveSubscriptionSettings(
  db: Kysely<Database>,
  input: SubscriptionSettingsInput,
  by: AuditBy,
): Promise<SubscriptionSettings> {
  await writeSettings(
    db,
    {
      [SUBSCRIPTION_SETTING_KEYS.freeShipping]: input.freeShipping,
      [SUBSCRIPTION_SETTING_KEYS.skipOutOfStockAfterDays]:
        input.skipOutOfStockAfterDays === undefined ? undefined : String(input.skipOutOfStockAfterDays),
    },
    by,
  );
  return readSubscriptionSettings(db);
}
