import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import { REPORT_MESSAGES, TIME_ZONE_MAX, TimeZoneSettingsInput } from '../../../shared/schemas/reports.js';
import { DEFAULT_SHOP_TIME_ZONE, timeZoneNames } from '../../../shared/shop-time.js';
import { toast } from '../../ui/toast.js';
import { adminSend, logUnexpected, messageOf } from '../api/admin-api.js';
import { Field, fieldAria, inputCls } from '../components/admin-ui.js';
import type { AdminSettings } from '../api/content-api.js';
import { FormSection, SaveRow, useSettingsForm, ValidationSummary } from '../components/settings-form.js';

const SettingsResponse = z.object({ settings: z.record(z.string(), z.string()) });

/** Saves the time zone; the overview's days and the list's periods follow it, so they are read again. */
function useSaveTimeZone() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: z.output<typeof TimeZoneSettingsInput>) => adminSend('PUT', '/api/admin/settings/time-zone', SettingsResponse, body),
    onSuccess: async (res) => {
      // The settings query's key (content-api.ts): the answer is every setting, as its GET gives.
      qc.setQueryData(['admin', 'settings'], res);
      await qc.invalidateQueries({ queryKey: ['admin', 'orders'] });
    },
  });
}

/**
 * The shop's time zone: where its days begin and end for the Orders overview, the order list's
 * dates and the CSV exports. Any IANA name the browser knows, suggested from its list.
 */
export function TimeZoneSettingsForm({ settings }: { settings: AdminSettings }) {
  const form = useSettingsForm('settings-time-zone', TimeZoneSettingsInput, {
    shop_time_zone: settings.shop_time_zone || DEFAULT_SHOP_TIME_ZONE,
  });
  const save = useSaveTimeZone();
  const id = form.idOf('shop_time_zone');
  const error = form.errorOf('shop_time_zone');
  const device = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (res) => {
        form.reset({ shop_time_zone: res.settings.shop_time_zone ?? body.shop_time_zone });
        toast({ title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: REPORT_MESSAGES.timeZoneSaved });
      },
      onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
    }),
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="mt-6 flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection
        title="Time zone"
        description="Where the shop's days begin and end: the Orders overview counts its days here, and the order list's dates and the CSV exports use it."
      >
        <Field
          label="Shop time zone"
          required
          htmlFor={id}
          error={error}
          hint={`A name like America/New_York or Europe/Paris. This device is set to ${device}.`}
        >
          <input
            id={id}
            className={`${inputCls} max-w-md`}
            list={`${id}-names`}
            maxLength={TIME_ZONE_MAX}
            autoComplete="off"
            spellCheck={false}
            {...form.register('shop_time_zone')}
            {...fieldAria(error, `${id}-error`)}
          />
        </Field>
        <datalist id={`${id}-names`}>
          {timeZoneNames().map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </FormSection>
      <SaveRow saving={save.isPending} dirty={form.dirty} label="Save Time Zone" />
    </form>
  );
}
