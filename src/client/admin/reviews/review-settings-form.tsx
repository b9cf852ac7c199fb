import '../../lib/zod-config.js';
import { REVIEW_LIMITS, REVIEW_MESSAGES, type ReviewModeration, type ReviewSettings } from '../../../shared/reviews.js';
import { ReviewSettingsInput } from '../../../shared/schemas/reviews.js';
import { CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { Field, fieldAria, inputCls, ListState, Panel } from '../components/admin-ui.js';
import { FormSection, SaveRow, useSettingsForm, ValidationSummary } from '../components/settings-form.js';
import { useReviewSettings, useSaveReviewSettings } from './get-review-settings.js';
import { REVIEW_QUEUE_MESSAGES } from './review-schemas.js';

/** Every setting is sent on save, so the form's schema is the body's with nothing left out. */
const SettingsFormSchema = ReviewSettingsInput.required();
type FormValues = { moderation: ReviewModeration; requestAfterDays: string; allowWithoutOrder: boolean };
const FIELDS = ['moderation', 'requestAfterDays', 'allowWithoutOrder'] as const;

const valuesOf = (s: ReviewSettings): FormValues => ({
  moderation: s.moderation,
  requestAfterDays: String(s.requestAfterDays),
  allowWithoutOrder: s.allowWithoutOrder,
});

const MODERATION: { id: ReviewModeration; label: string; hint: string }[] = [
  { id: 'publish', label: 'Publish at once', hint: 'New reviews appear on the product page as soon as they are written.' },
  { id: 'hold', label: 'Hold for approval', hint: 'New reviews wait in the Pending queue until you approve them.' },
];

/**
 * The server's refusal where it belongs: its sentence names the field first ("requestAfterDays: …",
 * the way parseInput writes it) or in its words ("moderation must be …"); anything else is a toast.
 */
function fieldOf(message: string): { field: (typeof FIELDS)[number]; message: string } | null {
  for (const field of FIELDS) {
    if (message.startsWith(`${field}: `)) return { field, message: message.slice(field.length + 2) };
    if (message.startsWith(`${field} `)) return { field, message };
  }
  if (message === REVIEW_MESSAGES.requestDaysRange) return { field: 'requestAfterDays', message };
  return null;
}

function SettingsFields({ settings }: { settings: ReviewSettings }) {
  const form = useSettingsForm('review-settings', SettingsFormSchema, valuesOf(settings));
  const save = useSaveReviewSettings();
  const daysId = form.idOf('requestAfterDays');
  const daysError = form.errorOf('requestAfterDays');
  const moderationError = form.errorOf('moderation');
  const allowId = form.idOf('allowWithoutOrder');
  const allowError = form.errorOf('allowWithoutOrder');
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (saved) => {
        form.reset(valuesOf(saved));
        toast({ title: CONTENT_ADMIN_MESSAGES.settingsUpdated, description: REVIEW_QUEUE_MESSAGES.settingsSaved });
      },
      onError: (err) => {
        const placed = fieldOf(messageOf(err));
        if (placed) form.setError(placed.field, { message: placed.message }, { shouldFocus: true });
        else toast({ title: 'Error', description: messageOf(err), variant: 'destructive' });
      },
    }),
  );
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-6">
      <ValidationSummary messages={form.messages} />
      <FormSection
        title="Moderation"
        description="Whether a new review appears at once or waits for you. Either way you can hide one later, for a stated reason."
      >
        <div
          role="radiogroup"
          aria-label="New reviews"
          aria-describedby={moderationError ? `${form.idOf('moderation')}-error` : undefined}
          className="flex flex-col gap-2"
        >
          {MODERATION.map((m) => (
            <label
              key={m.id}
              className="flex cursor-pointer items-start gap-3 rounded-md border border-stone-200 p-3 hover:bg-stone-50 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input type="radio" value={m.id} className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600" {...form.register('moderation')} />
              <span>
                <span className="block text-sm font-medium text-stone-900">{m.label}</span>
                <span className="block text-xs text-stone-700">{m.hint}</span>
              </span>
            </label>
          ))}
          {moderationError && (
            <p id={`${form.idOf('moderation')}-error`} className="text-sm text-red-700">
              {moderationError}
            </p>
          )}
        </div>
      </FormSection>
      <FormSection title="Review request e-mail">
        <Field
          label="Days after shipping"
          required
          htmlFor={daysId}
          error={daysError}
          hint={`Once per order, this many days (${REVIEW_LIMITS.requestDaysMin}–${REVIEW_LIMITS.requestDaysMax}) after it ships, the customer is e-mailed a link to review each product. Not sent for cancelled or fully refunded orders, nor to customers who opted out. The e-mail's text is in Email → templates.`}
        >
          <input
            id={daysId}
            className={`${inputCls} max-w-32`}
            type="number"
            min={REVIEW_LIMITS.requestDaysMin}
            max={REVIEW_LIMITS.requestDaysMax}
            step="1"
            inputMode="numeric"
            {...form.register('requestAfterDays')}
            {...fieldAria(daysError, `${daysId}-error`)}
          />
        </Field>
      </FormSection>
      <FormSection title="Reviews without an order">
        <div className="flex items-start gap-3">
          <input
            id={allowId}
            type="checkbox"
            className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600"
            aria-describedby={`${allowId}-hint${allowError ? ` ${allowId}-error` : ''}`}
            {...form.register('allowWithoutOrder')}
          />
          <div className="flex flex-col gap-1">
            <label htmlFor={allowId} className="text-sm font-medium text-stone-900">
              Allow reviews from signed-in customers who have not bought the product
            </label>
            <p id={`${allowId}-hint`} className="text-xs text-stone-700">
              {REVIEW_QUEUE_MESSAGES.withoutOrderNote} Off by default; when on, each customer may write at most{' '}
              {REVIEW_LIMITS.withoutOrderPerDay} such reviews a day.
            </p>
            {allowError && (
              <p id={`${allowId}-error`} className="text-sm text-red-700">
                {allowError}
              </p>
            )}
          </div>
        </div>
      </FormSection>
      <SaveRow saving={save.isPending} dirty={form.dirty} label="Save Review Settings" />
    </form>
  );
}

/** The Reviews tab's Settings view. */
export function ReviewSettingsForm() {
  const { data, error, isPending, refetch } = useReviewSettings();
  return (
    <Panel title="Review settings">
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading review settings"
      >
        {data && <SettingsFields settings={data} />}
      </ListState>
    </Panel>
  );
}
