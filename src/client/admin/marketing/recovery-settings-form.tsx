import '../../lib/zod-config.js';
import type { InputHTMLAttributes } from 'react';
import { Link } from 'react-router';
import { RECOVERY_LIMITS, RECOVERY_MESSAGES, RecoverySettingsInput } from '../../../shared/schemas/recovery.js';
import { CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import { Alert } from '../../ui/alert.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { Field, fieldAria, inputCls, ListState, Panel } from '../components/admin-ui.js';
import { FormSection, SaveRow, useSettingsForm, ValidationSummary } from '../components/settings-form.js';
import { useRecoverySettings, useSaveRecoverySettings, type RecoverySettingsView } from './marketing-api.js';

type FormValues = { enabled: boolean; firstAfterHours: string; secondAfterHours: string; couponPercent: string; couponDays: string };
type NumberField = Exclude<keyof FormValues, 'enabled'>;
const FIELDS = ['enabled', 'firstAfterHours', 'secondAfterHours', 'couponPercent', 'couponDays'] as const;

const valuesOf = (s: RecoverySettingsView): FormValues => ({
  enabled: s.enabled,
  firstAfterHours: String(s.firstAfterHours),
  secondAfterHours: String(s.secondAfterHours),
  couponPercent: String(s.couponPercent),
  couponDays: String(s.couponDays),
});

const useRecoveryForm = (settings: RecoverySettingsView) => useSettingsForm('recovery-settings', RecoverySettingsInput, valuesOf(settings));
type RecoveryForm = ReturnType<typeof useRecoveryForm>;

/** The server's refusal next to its field ("secondAfterHours: …" as parseInput writes it), else a toast. */
function fieldOf(message: string): { field: (typeof FIELDS)[number]; message: string } | null {
  for (const field of FIELDS) if (message.startsWith(`${field}: `)) return { field, message: message.slice(field.length + 2) };
  return null;
}

function NumberInput({
  of: form,
  name,
  label,
  hint,
  ...input
}: { of: RecoveryForm; name: NumberField; label: string; hint: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = form.idOf(name);
  const error = form.errorOf(name);
  return (
    <Field label={label} required htmlFor={id} error={error} hint={hint}>
      <input
        id={id}
        className={`${inputCls} max-w-32`}
        type="number"
        step="1"
        inputMode="numeric"
        {...input}
        {...form.register(name)}
        {...fieldAria(error, `${id}-error`)}
      />
    </Field>
  );
}

function SettingsFields({ settings }: { settings: RecoverySettingsView }) {
  const form = useRecoveryForm(settings);
  const save = useSaveRecoverySettings();
  const enabledId = form.idOf('enabled');
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (saved) => {
        form.reset(valuesOf(saved));
        toast({ title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: RECOVERY_MESSAGES.saved });
      },
      onError: (err) => {
        const placed = fieldOf(messageOf(err));
        if (placed) form.setError(placed.field, { message: placed.message }, { shouldFocus: true });
        else toast({ title: 'Not saved', description: messageOf(err), variant: 'destructive' });
      },
    }),
  );
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection
        title="Checkout recovery e-mails"
        description="A checkout left unpaid gets up to two e-mails, only if the shopper ticked “Send me offers and reminders” and never unsubscribed. Nothing is sent after they pay, order again, empty their cart or unsubscribe, or when everything in it has sold out."
      >
        <div className="flex items-start gap-3">
          <input id={enabledId} type="checkbox" className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600" {...form.register('enabled')} />
          <label htmlFor={enabledId} className="text-sm font-medium text-stone-900">
            Send checkout recovery e-mails
          </label>
        </div>
        {settings.postalAddress ? (
          <p className="text-sm text-stone-700">
            Footer address: <span className="font-medium text-stone-900">{settings.postalAddress}</span> (
            <Link to="/admin?tab=settings" className="text-brand-800 underline">
              Settings → General
            </Link>
            ).
          </p>
        ) : (
          <Alert variant="destructive" title={RECOVERY_MESSAGES.noPostalAddress} />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberInput
            of={form}
            name="firstAfterHours"
            label="First e-mail after (hours)"
            min={RECOVERY_LIMITS.firstHoursMin}
            max={RECOVERY_LIMITS.firstHoursMax}
            hint={`Hours after the checkout, ${RECOVERY_LIMITS.firstHoursMin}–${RECOVERY_LIMITS.firstHoursMax}. Template: Checkout Recovery.`}
          />
          <NumberInput
            of={form}
            name="secondAfterHours"
            label="Second e-mail after (hours)"
            min={0}
            max={RECOVERY_LIMITS.secondHoursMax}
            hint={`Hours after the checkout, up to ${RECOVERY_LIMITS.secondHoursMax}; 0 for no second e-mail. Template: Checkout Recovery Reminder.`}
          />
        </div>
      </FormSection>
      <FormSection
        title="Coupon in the second e-mail"
        description={`A one-use code, made for the e-mail, at most once per customer in ${RECOVERY_LIMITS.couponEveryDays} days. 0% sends the reminder without one.`}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberInput
            of={form}
            name="couponPercent"
            label="Discount (%)"
            min={0}
            max={RECOVERY_LIMITS.couponPercentMax}
            hint={`0–${RECOVERY_LIMITS.couponPercentMax}% off the cart.`}
          />
          <NumberInput
            of={form}
            name="couponDays"
            label="Valid for (days)"
            min={RECOVERY_LIMITS.couponDaysMin}
            max={RECOVERY_LIMITS.couponDaysMax}
            hint={`${RECOVERY_LIMITS.couponDaysMin}–${RECOVERY_LIMITS.couponDaysMax} days from the e-mail.`}
          />
        </div>
      </FormSection>
      <SaveRow saving={save.isPending} dirty={form.dirty} label="Save Recovery Settings" />
    </form>
  );
}

/** The Marketing tab's Settings view. */
export function RecoverySettingsForm() {
  const { data, error, isPending, refetch } = useRecoverySettings();
  return (
    <Panel title="Checkout recovery settings">
      <ListState isPending={isPending} error={error && !data ? error : null} onRetry={() => void refetch()} loadingLabel="Loading settings">
        {data && <SettingsFields settings={data} />}
      </ListState>
    </Panel>
  );
}
