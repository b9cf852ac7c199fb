import { tabForKey } from '../../ui/roving-tabs.js';
import '../../lib/zod-config.js';
import { useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ListState, Panel } from '../components/admin-ui.js';
import { useAdminSettings } from '../content/content-api.js';
import { GeneralSettingsForm, SocialSettingsForm } from './contact-settings-forms.js';
import { IntegrationSettingsForm } from './integration-settings-form.js';
import { TimeZoneSettingsForm } from './time-zone-form.js';
import { NotificationSettingsForm } from './notification-settings-form.js';

const SECTIONS = [
  { id: 'general', label: 'General' },
  { id: 'social', label: 'Social Media' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'notifications', label: 'Notifications' },
] as const;
type SectionId = (typeof SECTIONS)[number]['id'];

/** The open sub-tab lives in the address (`?tab=settings&section=social`) so it survives a reload. */
function useSection(): [SectionId, (id: SectionId) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('section');
  const active = SECTIONS.find((s) => s.id === raw)?.id ?? 'general';
  const select = (id: SectionId) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('tab', 'settings');
        next.set('section', id);
        return next;
      },
      { replace: true },
    );
  return [active, select];
}

export default function SettingsTab() {
  const { data, error, isPending, refetch } = useAdminSettings();
  const [active, select] = useSection();
  const refs = useRef<Partial<Record<SectionId, HTMLButtonElement | null>>>({});

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = tabForKey(e.key, SECTIONS, active);
    if (!target) return;
    e.preventDefault();
    select(target.id);
    refs.current[target.id]?.focus();
  };

  return (
    <Panel title="Settings">
      <ListState isPending={isPending} error={error && !data ? error : null} onRetry={() => void refetch()} loadingLabel="Loading settings">
        {data && (
          <>
            {/* Arrow keys, Home and End move between the tabs (WAI-ARIA tabs pattern): the tab buttons are what takes focus. */}
            {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus */}
            <div
              role="tablist"
              aria-label="Settings sections"
              onKeyDown={onKeyDown}
              className="mb-6 inline-flex max-w-full gap-1 overflow-x-auto rounded-lg bg-stone-100 p-1"
            >
              {SECTIONS.map((s) => {
                const selected = s.id === active;
                return (
                  <button
                    key={s.id}
                    ref={(el) => {
                      refs.current[s.id] = el;
                    }}
                    type="button"
                    role="tab"
                    id={`settings-tab-${s.id}`}
                    aria-selected={selected}
                    aria-controls={`settings-panel-${s.id}`}
                    tabIndex={selected ? 0 : -1}
                    onClick={() => select(s.id)}
                    className={`shrink-0 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                      selected ? 'bg-white text-brand-800 shadow-sm' : 'text-stone-700 hover:text-stone-900'
                    }`}
                  >
                    {s.label}
                  </button>
                );
              })}
            </div>
            {SECTIONS.map((s) => (
              // Every form stays mounted, so switching sub-tabs never drops unsaved entries.
              <div
                key={s.id}
                role="tabpanel"
                id={`settings-panel-${s.id}`}
                aria-labelledby={`settings-tab-${s.id}`}
                hidden={s.id !== active}
              >
                {s.id === 'general' && <GeneralSettingsForm settings={data} />}
                {s.id === 'general' && <TimeZoneSettingsForm settings={data} />}
                {s.id === 'social' && <SocialSettingsForm settings={data} />}
                {s.id === 'integrations' && <IntegrationSettingsForm settings={data} />}
                {s.id === 'notifications' && <NotificationSettingsForm settings={data} />}
              </div>
            ))}
          </>
        )}
      </ListState>
    </Panel>
  );
}
