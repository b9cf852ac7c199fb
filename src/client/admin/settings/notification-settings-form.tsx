import { Controller } from 'react-hook-form';
import {
  NOTIFICATION_SETTINGS_MESSAGES,
  NotificationSettingsInput,
  SHOP_EMAIL_SETTINGS,
  shopEmailOn,
} from '../../../shared/schemas/shop-notifications.js';
import { CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import { Switch } from '../components/admin-ui.js';
import type { AdminSettings } from '../content/content-api.js';
import { FormSection, SaveRow, useSaveSettingsForm, useSettingsForm, ValidationSummary } from '../content/content-form.js';

type Values = NotificationSettingsInput;

function valuesOf(settings: AdminSettings): Values {
  return {
    shop_email_new_order: shopEmailOn(settings[SHOP_EMAIL_SETTINGS.newOrder]),
    shop_email_contact_message: shopEmailOn(settings[SHOP_EMAIL_SETTINGS.contactMessage]),
  };
}

/** The e-mails the shop sends itself, to the contact address of the General section, each on or off. */
export function NotificationSettingsForm({ settings }: { settings: AdminSettings }) {
  const form = useSettingsForm('settings-notifications', NotificationSettingsInput, valuesOf(settings));
  const { save, onSubmit } = useSaveSettingsForm('notifications', form, {
    saved: valuesOf,
    success: { title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: NOTIFICATION_SETTINGS_MESSAGES.saved },
  });
  const to = settings.contact_email?.trim();
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
  ] as const;

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection
        title="E-mails to the shop"
        description={
          to
            ? `Sent to ${to} (the contact e-mail in General). Edit their text in Email → Templates.`
            : 'No contact e-mail is set in General, so these e-mails have nowhere to go: set one there first.'
        }
      >
        {rows.map((r) => (
          <div key={r.name} className="flex items-start gap-3">
            <Controller
              control={form.control}
              name={r.name}
              render={({ field }) => <Switch label={r.label} checked={field.value} onChange={field.onChange} />}
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
