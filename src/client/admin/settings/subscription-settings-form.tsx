import { Controller } from 'react-hook-form';
import { CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import {
  SUBSCRIPTION_SETTINGS_LIMITS,
  SUBSCRIPTION_SETTINGS_MESSAGES,
  SubscriptionSettingsForm as SettingsFormSchema,
  type SubscriptionSettings,
} from '../../../shared/schemas/admin/subscription-plans.js';
import { SUBSCRIPTION_LIMITS } from '../../../shared/subscriptions.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { useSubscriptionSettings } from '../api/get-subscription-settings.js';
import { useSaveSubscriptionSettings } from '../api/save-subscription-settings.js';
import { Field, fieldAria, inputCls, ListState, Switch } from '../components/admin-ui.js';
import { FormSection, SaveRow, useSettingsForm, ValidationSummary } from '../components/settings-form.js';

const valuesOf = (s: SubscriptionSettings) => ({
  freeShipping: s.freeShipping,
  skipOutOfStockAfterDays: String(s.skipOutOfStockAfterDays),
});

function SubscriptionSettingsFields({ settings }: { settings: SubscriptionSettings }) {
  const form = useSettingsForm('settings-subscriptions', SettingsFormSchema, valuesOf(settings));
  const save = useSaveSubscriptionSettings();
  const id = form.idOf('skipOutOfStockAfterDays');
  const error = form.errorOf('skipOutOfStockAfterDays');
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (saved) => {
        form.reset(valuesOf(saved));
        toast({ title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: SUBSCRIPTION_SETTINGS_MESSAGES.saved });
      },
      onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
    }),
  );
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection
        title="Subscriptions"
        description={`How renewals of Subscribe and save are sent. Which products offer it, at which intervals and discounts, is set on each product (Products → Edit). Customers are reminded ${SUBSCRIPTION_LIMITS.reminderDays} days before each renewal.`}
      >
        <div className="flex items-start gap-3">
          <Controller
            control={form.control}
            name="freeShipping"
            render={({ field }) => <Switch label="Free shipping on renewals" checked={field.value} onChange={field.onChange} />}
          />
          <div>
            <p className="text-sm font-medium text-stone-900">Free shipping on renewals</p>
            <p className="text-xs text-stone-600">
              On: renewal orders ship free. Off: each renewal pays for the shipping option chosen at checkout, as a one-time order would.
            </p>
          </div>
        </div>
        <Field
          label="Skip a renewal that waits for stock after (days)"
          required
          htmlFor={id}
          error={error}
          hint={`A renewal whose items are out of stock waits and is charged when they are back. After waiting this many days (${SUBSCRIPTION_SETTINGS_LIMITS.minSkipAfterDays}–${SUBSCRIPTION_SETTINGS_LIMITS.maxSkipAfterDays}) that delivery is skipped, and the next one is due as usual.`}
        >
          <input
            id={id}
            className={`${inputCls} max-w-32`}
            type="number"
            min={SUBSCRIPTION_SETTINGS_LIMITS.minSkipAfterDays}
            max={SUBSCRIPTION_SETTINGS_LIMITS.maxSkipAfterDays}
            step="1"
            inputMode="numeric"
            {...form.register('skipOutOfStockAfterDays')}
            {...fieldAria(error, `${id}-error`)}
          />
        </Field>
      </FormSection>
      <SaveRow saving={save.isPending} dirty={form.dirty} label="Save Subscription Settings" />
    </form>
  );
}

/** The Settings tab's Subscriptions section: renewals' shipping and how long one waits for stock. */
export function SubscriptionSettingsForm() {
  const { data, error, isPending, refetch } = useSubscriptionSettings();
  return (
    <ListState
      isPending={isPending}
      error={error && !data ? error : null}
      onRetry={() => void refetch()}
      loadingLabel="Loading subscription settings"
    >
      {data && <SubscriptionSettingsFields settings={data} />}
    </ListState>
  );
}
