import { Controller, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { IntegrationSettingsForm as IntegrationForm } from '../../../shared/schemas/admin/content.js';
import { CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import { STRIPE_PROMOTIONS_CONSENT_TEXTS } from '../../../shared/schemas/payments.js';
import { Button } from '../../ui/button.js';
import { Field, fieldAria, inputCls, Switch } from '../components/admin-ui.js';
import type { AdminSettings } from '../api/content-api.js';
import { usePaymentMode } from '../api/get-payment-mode.js';
import {
  FormSection,
  SaveRow,
  TextField,
  useSaveSettingsForm,
  useSettingsForm,
  ValidationSummary,
  type SettingsForm,
} from '../components/settings-form.js';

const MASK = '••••';
type Values = IntegrationForm;
type Form = SettingsForm<Values, z.output<typeof IntegrationForm>>;

/** The stored settings as the form holds them: missing keys get the defaults the shop runs with (switches off, API v2), secrets untouched. */
function valuesOf(settings: AdminSettings): Values {
  return {
    power_automate_endpoint: settings.power_automate_endpoint ?? '',
    power_automate_enabled: settings.power_automate_enabled === 'true',
    shipstation_enabled: settings.shipstation_enabled === 'true',
    shipstation_api_version: settings.shipstation_api_version === 'v1' ? 'v1' : 'v2',
    shipstation_api_key: '',
    remove_shipstation_api_key: false,
    shipstation_api_secret: '',
    remove_shipstation_api_secret: false,
    stripe_promotions_consent: settings.stripe_promotions_consent === 'true',
  };
}

/** "•••• 1234 saved", read out as "A value ending in 1234 saved". */
function SavedHint({ masked }: { masked: string }) {
  const tail = masked.startsWith(MASK) ? masked.slice(MASK.length) : '';
  return (
    <>
      <span aria-hidden="true">{MASK} </span>
      {tail ? (
        <>
          <span className="sr-only">A value ending in </span>
          <span className="font-mono">{tail}</span>
        </>
      ) : (
        <span className="sr-only">A value</span>
      )}{' '}
      saved.
    </>
  );
}

/**
 * A write-only secret: the input starts empty (empty on save keeps the stored value), the saved
 * value shows only as its masked hint, and a button marks it for removal.
 */
function SecretField({
  form,
  name,
  label,
  noun,
  masked,
  hint,
}: {
  form: Form;
  name: 'shipstation_api_key' | 'shipstation_api_secret';
  label: string;
  noun: string;
  masked: string;
  hint?: string;
}) {
  const remove = `remove_${name}` as const;
  const [typed, removing] = useWatch({ control: form.control, name: [name, remove] });
  const id = form.idOf(name);
  const statusId = `${id}-status`;
  const error = form.errorOf(name);
  const { 'aria-describedby': errorId, ...invalid } = fieldAria(error, `${id}-error`);
  return (
    <Field label={label} htmlFor={id} error={error} {...(hint ? { hint } : {})}>
      <input
        id={id}
        type="password"
        autoComplete="new-password"
        spellCheck={false}
        className={inputCls}
        maxLength={form.maxLengthOf(name)}
        {...form.register(name)}
        disabled={removing}
        placeholder={removing ? 'Will be removed' : masked ? `Leave empty to keep the saved ${noun}` : `Paste the ${noun}`}
        {...invalid}
        aria-describedby={[errorId, statusId].filter(Boolean).join(' ')}
      />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p id={statusId} className="text-sm text-stone-700">
          {removing ? (
            <>The saved {noun} will be removed when you save.</>
          ) : masked ? (
            <>
              <SavedHint masked={masked} /> {typed ? `Saving replaces it.` : `Leave empty to keep it.`}
            </>
          ) : (
            <>Not set.</>
          )}
        </p>
        {masked && (
          <Button
            size="sm"
            variant="ghost"
            className={removing ? '' : 'text-red-800 hover:bg-red-50'}
            onClick={() => {
              form.setValue(name, '', { shouldDirty: true });
              form.setValue(remove, !removing, { shouldDirty: true });
            }}
          >
            {removing ? `Keep saved ${noun}` : `Remove saved ${noun}`}
          </Button>
        )}
      </div>
    </Field>
  );
}

/** A switch bound to one of the form's on/off values, with what it does. */
function SwitchRow({
  form,
  name,
  label,
  description,
}: {
  form: Form;
  name: 'power_automate_enabled' | 'shipstation_enabled' | 'stripe_promotions_consent';
  label: string;
  description: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => <Switch label={label} checked={field.value === true} onChange={field.onChange} />}
      />
      <div>
        <p className="text-sm font-medium text-stone-900">{label}</p>
        <p className="text-xs text-stone-600">{description}</p>
      </div>
    </div>
  );
}

function Warning({ children }: { children: string }) {
  return <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">{children}</p>;
}

/** The contact-form workflow endpoint and the ShipStation connection. */
export function IntegrationSettingsForm({ settings }: { settings: AdminSettings }) {
  const form = useSettingsForm('settings-integrations', IntegrationForm, valuesOf(settings));
  const { save, onSubmit } = useSaveSettingsForm('integrations', form, {
    saved: valuesOf,
    success: { title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: CONTENT_ADMIN_MESSAGES.integrationsSaved },
  });
  const maskedKey = settings.shipstation_api_key ?? '';
  const maskedSecret = settings.shipstation_api_secret ?? '';
  const v = useWatch({ control: form.control });
  const { data: paymentMode } = usePaymentMode();

  const willHave = (masked: string, typed = '', remove = false) => (Boolean(masked) && !remove) || typed.trim() !== '';
  const shipstationIncomplete =
    v.shipstation_enabled === true &&
    (!willHave(maskedKey, v.shipstation_api_key, v.remove_shipstation_api_key) ||
      (v.shipstation_api_version === 'v1' && !willHave(maskedSecret, v.shipstation_api_secret, v.remove_shipstation_api_secret)));

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection
        title="Contact form workflow"
        description="Every contact message is stored and readable in the back office. When forwarding is on, it is also sent to this workflow endpoint (e.g. a Power Automate HTTP trigger)."
      >
        <TextField form={form} name="power_automate_endpoint" label="Workflow endpoint URL" type="url" placeholder="https://…" />
        <SwitchRow
          form={form}
          name="power_automate_enabled"
          label="Forward contact messages"
          description="Messages are retried while the endpoint is down."
        />
        {v.power_automate_enabled && !v.power_automate_endpoint?.trim() && (
          <Warning>Forwarding stays off until an endpoint URL is saved.</Warning>
        )}
      </FormSection>
      <FormSection
        title="ShipStation"
        description="Sends paid orders to ShipStation for shipping labels and tracking. Keys are never shown again after saving."
      >
        <SwitchRow
          form={form}
          name="shipstation_enabled"
          label="Enable ShipStation"
          description="When off, the shipping-label screens say the service is disabled."
        />
        <Field label="API version" htmlFor={form.idOf('shipstation_api_version')}>
          <select
            id={form.idOf('shipstation_api_version')}
            className={`${inputCls} sm:max-w-xs`}
            {...form.register('shipstation_api_version')}
          >
            <option value="v2">v2 (default)</option>
            <option value="v1">v1</option>
          </select>
        </Field>
        <div className="grid gap-4 md:grid-cols-2">
          <SecretField form={form} name="shipstation_api_key" label="API key" noun="API key" masked={maskedKey} />
          <SecretField
            form={form}
            name="shipstation_api_secret"
            label="API secret"
            noun="API secret"
            masked={maskedSecret}
            hint="Needed for API v1 only."
          />
        </div>
        {shipstationIncomplete && (
          <Warning>
            {v.shipstation_api_version === 'v1'
              ? 'ShipStation stays off until both an API key and an API secret are saved.'
              : 'ShipStation stays off until an API key is saved.'}
          </Warning>
        )}
      </FormSection>
      <FormSection title="Stripe">
        <SwitchRow
          form={form}
          name="stripe_promotions_consent"
          label={STRIPE_PROMOTIONS_CONSENT_TEXTS.label}
          description={STRIPE_PROMOTIONS_CONSENT_TEXTS.hint}
        />
        {v.stripe_promotions_consent && paymentMode?.provider === 'test' && <Warning>{STRIPE_PROMOTIONS_CONSENT_TEXTS.notStripe}</Warning>}
      </FormSection>
      <SaveRow saving={save.isPending} dirty={form.dirty} label="Save Integration Settings" />
    </form>
  );
}
