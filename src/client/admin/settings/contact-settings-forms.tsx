import {
  CONTENT_ADMIN_MESSAGES,
  GeneralSettingsInput,
  SHOP_RETURN_ADDRESS_MAX,
  SocialSettingsInput,
} from '../../../shared/schemas/content.js';
import type { AdminSettings } from '../api/content-api.js';
import {
  FormSection,
  pickSettings,
  SaveRow,
  TextField,
  useSaveSettingsForm,
  useSettingsForm,
  ValidationSummary,
} from '../components/settings-form.js';

const GENERAL_KEYS = ['contact_email', 'contact_phone', 'contact_hours', 'shop_return_address', 'shop_postal_address'] as const;
const SOCIAL_KEYS = ['social_media_facebook', 'social_media_youtube'] as const;

/** Contact e-mail, phone and hours, shown on the Contact page. */
export function GeneralSettingsForm({ settings }: { settings: AdminSettings }) {
  const form = useSettingsForm('settings-general', GeneralSettingsInput, pickSettings(settings, GENERAL_KEYS));
  const { save, onSubmit } = useSaveSettingsForm('general', form, {
    saved: (next) => pickSettings(next, GENERAL_KEYS),
    success: { title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: CONTENT_ADMIN_MESSAGES.generalSaved },
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection title="Contact information" description="Shown on the Contact page. Leave a field empty to hide it.">
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            form={form}
            name="contact_email"
            label="Contact email"
            type="email"
            autoComplete="off"
            placeholder="hello@example.com"
          />
          <TextField form={form} name="contact_phone" label="Contact phone" type="tel" autoComplete="off" placeholder="(555) 123-4567" />
        </div>
        <TextField form={form} name="contact_hours" label="Business hours" placeholder="Mon-Fri, 9am-5pm EST" />
      </FormSection>
      <FormSection title="Return address" description="Printed on packing slips as the sender, under the shop's name.">
        <TextField
          form={form}
          name="shop_return_address"
          label="Return address"
          rows={3}
          placeholder={'12 Green Lane\nPortland, OR 97201'}
          hint={`Street, city, state and ZIP, one per line (at most ${SHOP_RETURN_ADDRESS_MAX} characters).`}
        />
      </FormSection>
      <FormSection
        title="Postal address for offers"
        description="Offers and reminders (cart reminders) must show where the shop can be reached by post. Empty: the return address is used; with neither, none are sent."
      >
        <TextField
          form={form}
          name="shop_postal_address"
          label="Postal address"
          rows={3}
          placeholder={'EcoClean\n12 Green Lane\nPortland, OR 97201'}
          hint={`A street address or a registered PO box, one line each (at most ${SHOP_RETURN_ADDRESS_MAX} characters).`}
        />
      </FormSection>
      <SaveRow saving={save.isPending} dirty={form.dirty} label="Save General Settings" />
    </form>
  );
}

/** Facebook and YouTube links for the footer and the Contact page. */
export function SocialSettingsForm({ settings }: { settings: AdminSettings }) {
  const form = useSettingsForm('settings-social', SocialSettingsInput, pickSettings(settings, SOCIAL_KEYS));
  const { save, onSubmit } = useSaveSettingsForm('social', form, {
    saved: (next) => pickSettings(next, SOCIAL_KEYS),
    success: { title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: CONTENT_ADMIN_MESSAGES.socialSaved },
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection
        title="Social media links"
        description="Shown in the footer and on the Contact page. Leave a link empty to hide it; with both empty, the footer shows placeholder links."
      >
        <TextField
          form={form}
          name="social_media_facebook"
          label="Facebook page URL"
          type="url"
          placeholder="https://www.facebook.com/yourpage"
        />
        <TextField
          form={form}
          name="social_media_youtube"
          label="YouTube channel URL"
          type="url"
          placeholder="https://www.youtube.com/@yourchannel"
        />
      </FormSection>
      <SaveRow saving={save.isPending} dirty={form.dirty} label="Save Social Media Settings" />
    </form>
  );
}
