import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AuditBy } from '../audit/audit.js';
import { readSettings, writeSettings } from '../content/admin.js';
import { DEFAULT_REVIEW_SETTINGS, REVIEW_LIMITS, type ReviewSettings } from '../../shared/reviews.js';
import type { ReviewSettingsInput } from '../../shared/schemas/reviews.js';

/** The owner's review settings, in the `settings` table (key/value). */
export const REVIEW_SETTING_KEYS = {
  /** 'publish' (default) or 'hold'. */
  moderation: 'reviews.moderation',
  /** Whole days after shipping the request e-mail goes (1–60; default 10). */
  requestAfterDays: 'reviews.request_after_days',
  /** 'true': signed-in customers without an order of the product may review it. Default 'false'. */
  allowWithoutOrder: 'reviews.allow_without_order',
} as const;

function daysOf(stored: string | undefined): number {
  if (stored === undefined || !/^\d+$/.test(stored.trim())) return DEFAULT_REVIEW_SETTINGS.requestAfterDays;
  const days = Number(stored);
  return days >= REVIEW_LIMITS.requestDaysMin && days <= REVIEW_LIMITS.requestDaysMax ? days : DEFAULT_REVIEW_SETTINGS.requestAfterDays;
}

/** The settings as the review code reads them: a missing or unreadable value reads as its default. */
export async function readReviewSettings(db: Kysely<Database>): Promise<ReviewSettings> {
  const stored = await readSettings(db, Object.values(REVIEW_SETTING_KEYS));
  return {
    moderation: stored[REVIEW_SETTING_KEYS.moderation]?.trim() === 'hold' ? 'hold' : 'publish',
    requestAfterDays: daysOf(stored[REVIEW_SETTING_KEYS.requestAfterDays]),
    allowWithoutOrder: stored[REVIEW_SETTING_KEYS.allowWithoutOrder]?.trim() === 'true',
  };
}

/** Saves the settings given, audited as `settings.changed` naming the keys that changed. */
export async function saveReviewSettings(db: Kysely<Database>, input: ReviewSettingsInput, by: AuditBy): Promise<ReviewSettings> {
  await writeSettings(
    db,
    {
      [REVIEW_SETTING_KEYS.moderation]: input.moderation,
      [REVIEW_SETTING_KEYS.requestAfterDays]: input.requestAfterDays === undefined ? undefined : String(input.requestAfterDays),
      [REVIEW_SETTING_KEYS.allowWithoutOrder]: input.allowWithoutOrder,
    },
    by,
  );
  return readReviewSettings(db);
}
