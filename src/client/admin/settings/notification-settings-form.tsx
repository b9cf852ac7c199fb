import { Controller } from 'react-hook-form';
import {
  NOTIFICATION_SETTINGS_MESSAGES,
  NotificationSettingsInput,
  SHOP_EMAIL_SETTINGS,
  SHOP_NOTICES_EMAIL_SETTING,
  shopEmailOn,
} from '../../../shared/schemas/shop-notifications.js';
import { CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import { Switch } from '../components/admin-ui.js';
import type { AdminSettings } from '../api/content-api.js';
import { FormSection, SaveRow, TextField, useSaveSettingsForm, useSettingsForm, ValidationSummary } from '../components/settings-form.js';

type Values = Required<NotificationSettingsInput>;

function valuesOf(settings: AdminSettings): Values {
  return {
    shop_email_new_order: shopEmailOn(settings[SHOP_EMAIL_SETTINGS.newOrder]),
    shop_email_contact_message: shopEmailOn(settings[SHOP_EMAIL_SETTINGS.contactMessage]),
    shop_email_stock: shopEmailOn(settings[SHOP_EMAIL_SETTINGS.stock]),
    shop_notices_email: settings[SHOP_NOTICES_EMAIL_SETTING] ?? '',
  };
}

/** The e-mails the shop sends itself, to their own address (else the contact address of General), each on or off. */
export function NotificationSettingsForm({ settings }: { settings: AdminSettings }) {
  const form = useSettingsForm('settings-notifications', NotificationSettingsInput, valuesOf(settings));
  const { save, onSubmit } = useSaveSettingsForm('notifications', form, {
    saved: valuesOf,
    success: { title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: NOTIFICATION_SETTINGS_MESSAGES.saved },
  });
  const contact = settings.contact_email?.trim();
  const own = settings[SHOP_NOTICES_EMAIL_SETTING]?.trim();
  const to = own || contact;
  const rows = [
    {
      name: 'shop_email_new_order',
      label: 'E-mail me each paid order',
      description: 'Its number, customer, items, total and address, with a link to the order.',
    },
    {
      name: 'shop_email_contact_message',
      label: 'E-mail me each contact message',
      description: 'The sender, subject and message, to answer by replying to the sender.',
    },
    {
      name: 'shop_email_stock',
      label: 'E-mail me when stock runs low or sells out',
      description: 'Once when a variant falls to its low-stock threshold, and once when it sells out, with its SKU.',
    },
  ] as const;

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection
        title="E-mails to the shop"
        description={
          to
            ? `Sent to ${to}${own ? '' : ' (the contact e-mail in General)'}. Edit their text in Email → Templates.`
            : 'No address is set here or in General, so these e-mails have nowhere to go: set one first.'
        }
      >
        <TextField
          form={form}
          name="shop_notices_email"
          label="Send the shop's notices to"
          type="email"
          autoComplete="off"
          placeholder={contact || 'owner@example.com'}
          hint={
            contact
              ? `Leave empty to use the contact e-mail (${contact}), which shoppers see on the Contact page.`
              : 'Leave empty to use the contact e-mail of General.'
          }
        />
        {rows.map((r) => (
          <div key={r.name} className="flex items-start gap-3">
            <Controller
              control={form.control}
              name={r.name}
              render={({ field }) => <Switch label={r.label} checked={field.value ?? true} onChange={field.onChange} />}
            />
            <div>
              <p className="text-sm font-medium text-stone-900">{r.label}</p>
              <p className="text-xs text-stone-600">{r.description}</p>
            </div>
          </div>
        ))}
      </FormSection>
      <SaveRow saving={save.isPending} dirty={form.dirty} label="Save Notification Settings" />
    </form>
  );
}
