import { z } from 'zod';

/**
 * The e-mails the shop sends to itself (to the contact address of Settings → General): one for
 * each paid order and one for each contact message, each with its own switch. A missing setting
 * is on (a shop from before issue 28 hears about its orders); only 'false' turns one off.
 */
export const SHOP_EMAIL_SETTINGS = {
  newOrder: 'shop_email_new_order',
  contactMessage: 'shop_email_contact_message',
  /** The low-stock and sold-out e-mails (inventory/alerts.ts). */
  stock: 'shop_email_stock',
} as const;

/**
 * Where the shop's notices go (issue 40): their own address, so the public contact address need
 * not be the owner's inbox. Empty means the contact address of Settings → General.
 */
export const SHOP_NOTICES_EMAIL_SETTING = 'shop_notices_email';
export const SHOP_NOTICES_EMAIL_INVALID = 'Please enter a valid email address for the notices, or leave it empty to use the contact email';

export const SHOP_EMAIL_TEMPLATES = {
  newOrder: 'shop-new-order',
  contactMessage: 'shop-contact-message',
} as const;

/** PUT /api/admin/settings/notifications */
export const NotificationSettingsInput = z
  .object({
    shop_email_new_order: z.boolean({ message: 'shop_email_new_order must be true or false' }),
    shop_email_contact_message: z.boolean({ message: 'shop_email_contact_message must be true or false' }),
    // Optional, so a form from before they existed still saves.
    shop_email_stock: z.boolean({ message: 'shop_email_stock must be true or false' }).optional(),
    shop_notices_email: z
      .string({ message: SHOP_NOTICES_EMAIL_INVALID })
      .trim()
      .max(254, SHOP_NOTICES_EMAIL_INVALID)
      .refine((v) => v === '' || z.email().safeParse(v).success, SHOP_NOTICES_EMAIL_INVALID)
      .optional(),
  })
  .strict();
export type NotificationSettingsInput = z.input<typeof NotificationSettingsInput>;

/** A stored switch as the form and the server read it: on unless saved as 'false'. */
export function shopEmailOn(value: string | undefined): boolean {
  return value !== 'false';
}

export const NOTIFICATION_SETTINGS_MESSAGES = {
  saved: 'Notification settings have been saved successfully.',
} as const;
