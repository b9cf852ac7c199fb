import '../../lib/zod-config.js';
import { useSearchParams } from 'react-router';
import { Tabs } from '../../ui/tabs.js';
import { ListState, Panel } from '../components/admin-ui.js';
import { useAdminSettings } from '../api/content-api.js';
import { GeneralSettingsForm, SocialSettingsForm } from './contact-settings-forms.js';
import { IntegrationSettingsForm } from './integration-settings-form.js';
import { TimeZoneSettingsForm } from './time-zone-form.js';
import { NotificationSettingsForm } from './notification-settings-form.js';
import { SubscriptionSettingsForm } from './subscription-settings-form.js';

const SECTIONS = [
  { id: 'general', label: 'General' },
  { id: 'social', label: 'Social Media' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'subscriptions', label: 'Subscriptions' },
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

  return (
    <Panel title="Settings">
      <ListState isPending={isPending} error={error && !data ? error : null} onRetry={() => void refetch()} loadingLabel="Loading settings">
        {data && (
          // On a phone the sub-tabs sit two by two, every one in sight (a scrolled row hid the fourth).
          // Every form stays mounted, so switching sub-tabs never drops unsaved entries.
          <Tabs
            label="Settings sections"
            tabs={SECTIONS}
            selected={active}
            onSelect={select}
            idPrefix="settings"
            listClassName="mb-6 grid max-w-full grid-cols-2 gap-1 rounded-lg bg-stone-100 p-1 sm:inline-flex sm:flex-wrap"
            tabClassName={(selected) =>
              `shrink-0 whitespace-nowrap rounded-md px-3 py-2 text-center text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                selected ? 'bg-white text-brand-800 shadow-sm' : 'text-stone-700 hover:text-stone-900'
              }`
            }
            keepMounted
          >
            {(id) => (
              <>
                {id === 'general' && <GeneralSettingsForm settings={data} />}
                {id === 'general' && <TimeZoneSettingsForm settings={data} />}
                {id === 'social' && <SocialSettingsForm settings={data} />}
                {id === 'integrations' && <IntegrationSettingsForm settings={data} />}
                {id === 'notifications' && <NotificationSettingsForm settings={data} />}
                {id === 'subscriptions' && <SubscriptionSettingsForm />}
              </>
            )}
          </Tabs>
        )}
      </ListState>
    </Panel>
  );
}
