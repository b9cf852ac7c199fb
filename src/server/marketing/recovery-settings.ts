import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AuditBy } from '../audit/audit.js';
import { HttpError } from '../http/errors.js';
import { readSettings, writeSettings } from '../content/admin.js';
import {
  DEFAULT_RECOVERY_SETTINGS,
  RECOVERY_LIMITS,
  RECOVERY_MESSAGES,
  type RecoverySettings,
  type RecoverySettingsInput,
} from '../../shared/schemas/recovery.js';
import { shopPostalAddress } from './footer.js';

/** The owner's checkout recovery settings, in the `settings` table (key/value). */
export const RECOVERY_SETTING_KEYS = {
  enabled: 'recovery.enabled',
  firstAfterHours: 'recovery.first_after_hours',
  secondAfterHours: 'recovery.second_after_hours',
  couponPercent: 'recovery.coupon_percent',
  couponDays: 'recovery.coupon_days',
} as const;

function whole(stored: string | undefined, fallback: number, ok: (n: number) => boolean): number {
  if (stored === undefined || !/^\d+$/.test(stored.trim())) return fallback;
  const n = Number(stored);
  return ok(n) ? n : fallback;
}

/** The settings as the recovery pass reads them: a missing or unreadable value reads as its default. */
export async function readRecoverySettings(db: Kysely<Database>): Promise<RecoverySettings & { postalAddress: string }> {
  const [s, postalAddress] = await Promise.all([readSettings(db, Object.values(RECOVERY_SETTING_KEYS)), shopPostalAddress(db)]);
  const d = DEFAULT_RECOVERY_SETTINGS;
  const L = RECOVERY_LIMITS;
  const firstAfterHours = whole(
    s[RECOVERY_SETTING_KEYS.firstAfterHours],
    d.firstAfterHours,
    (n) => n >= L.firstHoursMin && n <= L.firstHoursMax,
  );
  const second = whole(
    s[RECOVERY_SETTING_KEYS.secondAfterHours],
    d.secondAfterHours,
    (n) => n === 0 || (n >= L.secondHoursMin && n <= L.secondHoursMax),
  );
  return {
    enabled: s[RECOVERY_SETTING_KEYS.enabled]?.trim() === 'true',
    firstAfterHours,
    secondAfterHours: second !== 0 && second <= firstAfterHours ? 0 : second,
    couponPercent: whole(s[RECOVERY_SETTING_KEYS.couponPercent], d.couponPercent, (n) => n >= 0 && n <= L.couponPercentMax),
    couponDays: whole(s[RECOVERY_SETTING_KEYS.couponDays], d.couponDays, (n) => n >= L.couponDaysMin && n <= L.couponDaysMax),
    postalAddress,
  };
}

/** Saves the settings, audited as `settings.changed`. Turning recovery on needs the shop's postal address. */
export async function saveRecoverySettings(db: Kysely<Database>, input: RecoverySettingsInput, by: AuditBy) {
  const parsed = input as RecoverySettings;
  if (parsed.enabled && !(await shopPostalAddress(db))) throw new HttpError(400, RECOVERY_MESSAGES.noPostalAddress);
  await writeSettings(
    db,
    {
      [RECOVERY_SETTING_KEYS.enabled]: parsed.enabled,
      [RECOVERY_SETTING_KEYS.firstAfterHours]: String(parsed.firstAfterHours),
      [RECOVERY_SETTING_KEYS.secondAfterHours]: String(parsed.secondAfterHours),
      [RECOVERY_SETTING_KEYS.couponPercent]: String(parsed.couponPercent),
      [RECOVERY_SETTING_KEYS.couponDays]: String(parsed.couponDays),
    },
    by,
  );
  return readRecoverySettings(db);
}
