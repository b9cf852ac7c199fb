import { z } from 'zod';
import { EmailTemplateInput, FaqInput, IntegrationSettingsInput, TestEmailInput } from '../content.js';
import { secretBody } from './fields.js';

// Forms of the content tabs (FAQs, Settings → Integrations, Email): their bodies are in ../content.ts.

/**
 * Each body has a form-shaped twin beside it (…Form): what the back office's inputs hold (text,
 * dollars, local date-times) mapped onto the body, then parsed by the very schema the server uses.
 * A form adds no rule and no message of its own; a field's error comes from the body schema, at the
 * body key (each form names its fields after the body's keys so the errors land on the right input).
 */

/** The FAQ dialog's category choice besides an existing name: none, or a new one typed in `newCategory`. */
export const FAQ_CATEGORY_CHOICE = { none: '__none__', new: '__new__' } as const;

/** The FAQ dialog: the category is chosen from a list (or typed when new). */
export const FaqForm = z
  // The body's own field schemas, so every field's error shows at once (a pipe stops at the first stage that fails).
  .object({ question: FaqInput.shape.question, answer: FaqInput.shape.answer, category: z.string(), newCategory: z.string() })
  // The one rule of the form itself: choosing "New category…" means typing its name.
  .refine((v) => v.category !== FAQ_CATEGORY_CHOICE.new || v.newCategory.trim() !== '', {
    message: 'Category name is required',
    path: ['newCategory'],
  })
  .transform((v): z.input<typeof FaqInput> => ({
    question: v.question,
    answer: v.answer,
    category: v.category === FAQ_CATEGORY_CHOICE.new ? v.newCategory : v.category === FAQ_CATEGORY_CHOICE.none ? null : v.category,
  }))
  .pipe(FaqInput);
export type FaqForm = z.input<typeof FaqForm>;

/** The integrations settings: switches as booleans; each ShipStation secret typed anew, kept, or removed. */
export const IntegrationSettingsForm = z
  .object({
    power_automate_endpoint: z.string(),
    power_automate_enabled: z.boolean(),
    shipstation_enabled: z.boolean(),
    shipstation_api_version: z.enum(['v1', 'v2']),
    /** A new key ('' keeps the saved one). */
    shipstation_api_key: z.string(),
    remove_shipstation_api_key: z.boolean(),
    /** A new secret ('' keeps the saved one). */
    shipstation_api_secret: z.string(),
    remove_shipstation_api_secret: z.boolean(),
    /** Stripe Checkout's own offers box (absent: left as saved). */
    stripe_promotions_consent: z.boolean().optional(),
  })
  .transform((v): z.input<typeof IntegrationSettingsInput> => ({
    power_automate_endpoint: v.power_automate_endpoint,
    power_automate_enabled: v.power_automate_enabled,
    shipstation_enabled: v.shipstation_enabled,
    shipstation_api_version: v.shipstation_api_version,
    shipstation_api_key: secretBody(v.shipstation_api_key, v.remove_shipstation_api_key),
    shipstation_api_secret: secretBody(v.shipstation_api_secret, v.remove_shipstation_api_secret),
    stripe_promotions_consent: v.stripe_promotions_consent,
  }))
  .pipe(IntegrationSettingsInput);
export type IntegrationSettingsForm = z.input<typeof IntegrationSettingsForm>;

/** Variable names as typed: separated by commas or spaces, each once. */
export function splitVariables(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

/** The template editor: the variables as one line of text, an empty plain-text version meaning none. */
export const EmailTemplateForm = z
  .object({ id: z.string(), name: z.string(), subject: z.string(), html: z.string(), text: z.string(), variables: z.string() })
  .transform((v): z.input<typeof EmailTemplateInput> => ({
    id: v.id.trim(),
    name: v.name,
    subject: v.subject,
    html: v.html,
    text: v.text.trim() ? v.text : null,
    variables: splitVariables(v.variables),
  }))
  .pipe(EmailTemplateInput);
export type EmailTemplateForm = z.input<typeof EmailTemplateForm>;

/** The test send: the address as typed (spaces around it dropped). */
export const TestEmailForm = z
  .object({ templateId: z.string(), testEmail: z.string() })
  .transform((v): z.input<typeof TestEmailInput> => ({ templateId: v.templateId, testEmail: v.testEmail.trim() }))
  .pipe(TestEmailInput);
export type TestEmailForm = z.input<typeof TestEmailForm>;
