import { useId, useState, type FormEvent } from 'react';
import { CONTENT_ADMIN_MESSAGES, IntegrationSettingsInput } from '../../../shared/schemas/content.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { Field, inputCls, Switch } from '../components/admin-ui.js';
import { useSaveSettings, type AdminSettings } from '../content/content-api.js';
import { FormSection, SaveRow, TextField, useSettingsForm, ValidationSummary } from '../content/content-form.js';

const KEYS = ['power_automate_endpoint', 'power_automate_enabled', 'shipstation_enabled', 'shipstation_api_version'] as const;
const MASK = '••••';

/** A stored secret as the form sees it: what the server showed (masked), a new value, or "remove". */
type Secret = { input: string; clear: boolean };
const NO_CHANGE: Secret = { input: '', clear: false };

/** Missing keys get the defaults the shop runs with (switches off, API v2). */
function withDefaults(settings: AdminSettings): AdminSettings {
  return {
    ...settings,
    power_automate_enabled: settings.power_automate_enabled === 'true' ? 'true' : 'false',
    shipstation_enabled: settings.shipstation_enabled === 'true' ? 'true' : 'false',
    shipstation_api_version: settings.shipstation_api_version === 'v1' ? 'v1' : 'v2',
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
  label,
  noun,
  masked,
  value,
  onChange,
  hint,
}: {
  label: string;
  noun: string;
  masked: string;
  value: Secret;
  onChange: (next: Secret) => void;
  hint?: string;
}) {
  const id = useId();
  const statusId = `${id}-status`;
  return (
    <Field label={label} htmlFor={id} {...(hint ? { hint } : {})}>
      <input
        id={id}
        type="password"
        autoComplete="new-password"
        spellCheck={false}
        className={inputCls}
        value={value.input}
        disabled={value.clear}
        placeholder={value.clear ? 'Will be removed' : masked ? `Leave empty to keep the saved ${noun}` : `Paste the ${noun}`}
        aria-describedby={statusId}
        onChange={(e) => onChange({ input: e.target.value, clear: false })}
      />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p id={statusId} className="text-sm text-stone-700">
          {value.clear ? (
            <>The saved {noun} will be removed when you save.</>
          ) : masked ? (
            <>
              <SavedHint masked={masked} /> {value.input ? `Saving replaces it.` : `Leave empty to keep it.`}
            </>
          ) : (
            <>Not set.</>
          )}
        </p>
        {masked && (
          <Button
            size="sm"
            variant="ghost"
            className={value.clear ? '' : 'text-red-800 hover:bg-red-50'}
            onClick={() => onChange(value.clear ? NO_CHANGE : { input: '', clear: true })}
          >
            {value.clear ? `Keep saved ${noun}` : `Remove saved ${noun}`}
          </Button>
        )}
      </div>
    </Field>
  );
}

function SwitchRow({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className="flex items-start gap-3">
      <Switch label={label} checked={checked} onChange={onChange} />
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
  const form = useSettingsForm('settings-integrations', KEYS, withDefaults(settings));
  const save = useSaveSettings('integrations');
  const [apiKey, setApiKey] = useState<Secret>(NO_CHANGE);
  const [apiSecret, setApiSecret] = useState<Secret>(NO_CHANGE);
  const [secretError, setSecretError] = useState<string | null>(null);
  const maskedKey = settings.shipstation_api_key ?? '';
  const maskedSecret = settings.shipstation_api_secret ?? '';
  const v = form.values;
  const changed = (s: Secret) => s.clear || s.input !== '';
  const dirty = form.dirty || changed(apiKey) || changed(apiSecret);

  const willHave = (masked: string, s: Secret) => (Boolean(masked) && !s.clear) || s.input.trim() !== '';
  const shipstationIncomplete =
    v.shipstation_enabled === 'true' &&
    (!willHave(maskedKey, apiKey) || (v.shipstation_api_version === 'v1' && !willHave(maskedSecret, apiSecret)));

  const secretBody = (s: Secret) => (s.clear ? null : s.input.trim() || undefined);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const input = {
      power_automate_endpoint: v.power_automate_endpoint,
      power_automate_enabled: v.power_automate_enabled === 'true',
      shipstation_enabled: v.shipstation_enabled === 'true',
      shipstation_api_version: v.shipstation_api_version === 'v1' ? 'v1' : 'v2',
      shipstation_api_key: secretBody(apiKey),
      shipstation_api_secret: secretBody(apiSecret),
    };
    const parsed = IntegrationSettingsInput.safeParse(input);
    setSecretError(
      parsed.success ? null : (parsed.error.issues.find((i) => String(i.path[0]).startsWith('shipstation_api_'))?.message ?? null),
    );
    const body = form.validate(IntegrationSettingsInput, input);
    if (!body) return;
    save.mutate(body, {
      onSuccess: (res) => {
        form.markSaved(withDefaults(res.settings));
        setApiKey(NO_CHANGE);
        setApiSecret(NO_CHANGE);
        toast({ title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: CONTENT_ADMIN_MESSAGES.integrationsSaved });
      },
      onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={[...KEYS.flatMap((k) => form.errors[k] ?? []), ...(secretError ? [secretError] : [])]} />
      <FormSection
        title="Contact form workflow"
        description="Every contact message is stored and readable in the back office. When forwarding is on, it is also sent to this workflow endpoint (e.g. a Power Automate HTTP trigger)."
      >
        <TextField form={form} name="power_automate_endpoint" label="Workflow endpoint URL" type="url" placeholder="https://…" />
        <SwitchRow
          label="Forward contact messages"
          description="Messages are retried while the endpoint is down."
          checked={v.power_automate_enabled === 'true'}
          onChange={(on) => form.set('power_automate_enabled', String(on))}
        />
        {v.power_automate_enabled === 'true' && !v.power_automate_endpoint.trim() && (
          <Warning>Forwarding stays off until an endpoint URL is saved.</Warning>
        )}
      </FormSection>
      <FormSection
        title="ShipStation"
        description="Sends paid orders to ShipStation for shipping labels and tracking. Keys are never shown again after saving."
      >
        <SwitchRow
          label="Enable ShipStation"
          description="When off, the shipping-label screens say the service is disabled."
          checked={v.shipstation_enabled === 'true'}
          onChange={(on) => form.set('shipstation_enabled', String(on))}
        />
        <Field label="API version" htmlFor="settings-integrations-shipstation_api_version">
          <select
            id="settings-integrations-shipstation_api_version"
            className={`${inputCls} sm:max-w-xs`}
            value={v.shipstation_api_version}
            onChange={(e) => form.set('shipstation_api_version', e.target.value === 'v1' ? 'v1' : 'v2')}
          >
            <option value="v2">v2 (default)</option>
            <option value="v1">v1</option>
          </select>
        </Field>
        <div className="grid gap-4 md:grid-cols-2">
          <SecretField label="API key" noun="API key" masked={maskedKey} value={apiKey} onChange={setApiKey} />
          <SecretField
            label="API secret"
            noun="API secret"
            masked={maskedSecret}
            value={apiSecret}
            onChange={setApiSecret}
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
      <SaveRow saving={save.isPending} dirty={dirty} label="Save Integration Settings" />
    </form>
  );
}
