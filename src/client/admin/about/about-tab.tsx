import '../../lib/zod-config.js';
import { useState } from 'react';
import { ABOUT_SETTING_KEYS } from '../../../shared/schemas/catalog.js';
import { AboutContentInput, CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import { paths } from '../../lib/paths.js';
import { messageOf } from '../api/admin-api.js';
import type { AdminSettings } from '../api/content-api.js';
import {
  FormSection,
  ImageField,
  pickSettings,
  SettingsPage,
  StickySaveBar,
  TextField,
  useSaveSettingsForm,
  useSettingsForm,
  ValidationSummary,
} from '../components/settings-form.js';

const KEYS = ABOUT_SETTING_KEYS;

const PARAGRAPH_HINT = 'Leave a blank line between paragraphs. A section with no heading and no text is not shown.';

/** The three plain sections below the mission: a heading and its text each. */
const SECTIONS = [
  { legend: 'History', title: 'about_history_title', content: 'about_history_content' },
  { legend: 'Values', title: 'about_values_title', content: 'about_values_content' },
  { legend: 'Commitment', title: 'about_commitment_title', content: 'about_commitment_content' },
] as const;

function AboutForm({ settings }: { settings: AdminSettings }) {
  const form = useSettingsForm('about', AboutContentInput, pickSettings(settings, KEYS));
  const { save, onSubmit } = useSaveSettingsForm('about', form, {
    saved: (next) => pickSettings(next, KEYS),
    success: { title: CONTENT_ADMIN_MESSAGES.contentSaved, description: CONTENT_ADMIN_MESSAGES.aboutSaved },
    failure: (err) => CONTENT_ADMIN_MESSAGES.contentFailed(messageOf(err)),
  });
  const [uploading, setUploading] = useState(false);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection title="Page header" description="The page title and the picture beside it.">
        <TextField form={form} name="about_title" label="Title" required />
        <ImageField form={form} name="about_hero_image" label="Hero image" onBusy={setUploading} disabled={save.isPending} />
      </FormSection>
      <FormSection title="Mission">
        <TextField form={form} name="about_mission_title" label="Mission heading" />
        <TextField form={form} name="about_mission_content" label="Mission text" rows={6} hint={PARAGRAPH_HINT} />
        <TextField
          form={form}
          name="about_mission_quote"
          label="Mission quote"
          hint="Shown as a highlighted quote under the mission text."
        />
      </FormSection>
      {SECTIONS.map((s) => (
        <FormSection key={s.legend} title={s.legend}>
          <TextField form={form} name={s.title} label={`${s.legend} heading`} />
          <TextField form={form} name={s.content} label={`${s.legend} text`} rows={6} hint={PARAGRAPH_HINT} />
        </FormSection>
      ))}
      <StickySaveBar saving={save.isPending} dirty={form.dirty} disabled={uploading} label="Save About Content" />
    </form>
  );
}

export default function AboutTab() {
  return (
    <SettingsPage title="About Page Content" preview={paths.about} loadingLabel="Loading About content">
      {(settings) => <AboutForm settings={settings} />}
    </SettingsPage>
  );
}
