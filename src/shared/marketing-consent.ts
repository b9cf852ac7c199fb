/**
 * The sign-up and checkout box for offers and reminders (decision 0060), in words. No zod here: the
 * checkout shows the box, and what it imports is evaluated as it starts (the schemas are in
 * schemas/email-preferences.ts).
 */
export const MARKETING_CONSENT_LABEL = 'Send me offers and reminders';
export const MARKETING_CONSENT_HINT = 'Now and then, and never shared. Unsubscribe at any time; order e-mails come either way.';
