import { z } from 'zod';

/**
 * The account's e-mail preferences (issue [7/8], decision 0060): offers and reminders (marketing,
 * off until the customer says yes) and review requests (on until they say no). Orders,
 * subscriptions and password e-mails are not marketing and are always sent.
 */
export { MARKETING_CONSENT_HINT, MARKETING_CONSENT_LABEL } from '../marketing-consent.js';

export const EMAIL_PREFERENCES_MESSAGES = {
  saved: 'Your e-mail preferences are saved.',
  notWhileImpersonating: 'E-mail preferences are the customer’s own choice: they cannot be changed while you act as them.',
  verifyFirst:
    'This address unsubscribed from offers and reminders. To turn them on again, first confirm your e-mail address (see the notice at the top of your account).',
  marketingRequired: 'Choose whether to get offers and reminders.',
  reviewRequestsRequired: 'Choose whether to get review requests.',
} as const;

export const EmailPreferencesInput = z
  .object({
    marketing: z.boolean({ message: EMAIL_PREFERENCES_MESSAGES.marketingRequired }),
    reviewRequests: z.boolean({ message: EMAIL_PREFERENCES_MESSAGES.reviewRequestsRequired }),
  })
  .strict();
export type EmailPreferencesInput = z.infer<typeof EmailPreferencesInput>;

export const CONSENT_SOURCES = ['sign-up', 'checkout', 'account'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export const EmailPreferences = z.object({
  email: z.string(),
  marketing: z.boolean(),
  /** When and where the current consent was given (null while marketing is off). */
  marketingSince: z.string().nullable(),
  marketingSource: z.enum(CONSENT_SOURCES).nullable(),
  /** The address unsubscribed (a link or the account): only a confirmed address can turn it back on. */
  unsubscribed: z.boolean(),
  reviewRequests: z.boolean(),
});
export type EmailPreferences = z.infer<typeof EmailPreferences>;

/** How the preferences card names where consent was given. */
export const CONSENT_SOURCE_WORDS: Record<ConsentSource, string> = {
  'sign-up': 'when you created your account',
  checkout: 'at checkout',
  account: 'in your account',
};

/** The unsubscribe link's page and API (a marketing e-mail's link and `List-Unsubscribe` header). */
export const UNSUBSCRIBE_MESSAGES = {
  linkUnknown:
    'This unsubscribe link is not valid. Use the link in the e-mail as it is, or change your e-mail preferences in your account.',
  done: 'You are unsubscribed: no more offers and reminders will be sent to this address. Order e-mails still come.',
} as const;

export const UnsubscribeState = z.object({
  /** The address, masked ("j•••@example.com"). */
  address: z.string(),
  unsubscribed: z.boolean(),
});
export type UnsubscribeState = z.infer<typeof UnsubscribeState>;
