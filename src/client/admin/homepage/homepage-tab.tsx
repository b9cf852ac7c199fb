import '../../lib/zod-config.js';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { CONTENT_ADMIN_MESSAGES, HomepageContentInput, toEmbedVideoUrl } from '../../../shared/schemas/content.js';
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

const KEYS = [
  'homepage_hero_title',
  'homepage_hero_subtitle',
  'homepage_hero_description',
  'homepage_hero_image',
  'hero_video_url',
  'homepage_about_title',
  'homepage_about_description',
  'homepage_about_image',
] as const;

function HomepageForm({ settings }: { settings: AdminSettings }) {
  const form = useSettingsForm('homepage', HomepageContentInput, pickSettings(settings, KEYS));
  const { save, onSubmit } = useSaveSettingsForm('homepage', form, {
    saved: (next) => pickSettings(next, KEYS),
    success: { title: CONTENT_ADMIN_MESSAGES.contentSaved, description: CONTENT_ADMIN_MESSAGES.homepageSaved },
    failure: (err) => CONTENT_ADMIN_MESSAGES.contentFailed(messageOf(err)),
  });
  const [uploading, setUploading] = useState(false);
  const video = (useWatch({ control: form.control, name: 'hero_video_url' }) ?? '').trim();
  const embed = toEmbedVideoUrl(video);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection title="Hero" description="The first thing visitors see on the home page.">
        <TextField form={form} name="homepage_hero_title" label="Hero title" required />
        <TextField form={form} name="homepage_hero_subtitle" label="Hero subtitle" required />
        <TextField form={form} name="homepage_hero_description" label="Hero description" required rows={4} />
        <ImageField form={form} name="homepage_hero_image" label="Hero image" onBusy={setUploading} disabled={save.isPending} />
        <TextField
          form={form}
          name="hero_video_url"
          label="Hero video link"
          type="url"
          placeholder="https://www.youtube.com/watch?v=…"
          hint="Accepted: a YouTube video (watch, youtu.be or embed link) or a Vimeo video, saved in embed form; or an https:// link to a video file ending in .mp4, .webm or .ogg. Clicking the hero image plays it. Leave empty for no video."
        />
        {video && embed !== video && (
          <p className="-mt-2 break-all text-xs text-stone-700">
            Will be saved as: <span className="font-mono">{embed}</span>
          </p>
        )}
      </FormSection>
      <FormSection title="About section" description="The short story further down the home page, next to its own image.">
        <TextField form={form} name="homepage_about_title" label="About title" required />
        <TextField
          form={form}
          name="homepage_about_description"
          label="About description"
          required
          rows={6}
          hint="Leave a blank line between paragraphs."
        />
        <ImageField form={form} name="homepage_about_image" label="About image" onBusy={setUploading} disabled={save.isPending} />
      </FormSection>
      <StickySaveBar saving={save.isPending} dirty={form.dirty} disabled={uploading} label="Save Homepage Content" />
    </form>
  );
}

export default function HomepageTab() {
  return (
    <SettingsPage title="Homepage Content" preview={paths.home} loadingLabel="Loading homepage content">
      {(settings) => <HomepageForm settings={settings} />}
    </SettingsPage>
  );
}
