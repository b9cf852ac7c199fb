import { useSearchParams } from 'react-router';
import { SubTabs } from '../components/sub-tabs.js';
import { AbandonedCheckouts } from './abandoned-checkouts.js';
import { RecoverySettingsForm } from './recovery-settings-form.js';
import { ReorderRemindersPanel } from './reorder-reminders-panel.js';

const VIEWS = [
  { id: 'checkouts', label: 'Abandoned checkouts' },
  { id: 'reminders', label: 'Reorder reminders' },
  { id: 'settings', label: 'Settings' },
] as const;
type View = (typeof VIEWS)[number]['id'];

/**
 * The owner's Marketing tab (issue [7/8]): abandoned checkouts with their figures, the reorder
 * reminders sent and the orders that followed, and the recovery settings, each a view in the address (`?tab=marketing&view=settings`).
 */
export default function MarketingTab() {
  const [params, setParams] = useSearchParams();
  const view: View = VIEWS.find((v) => v.id === params.get('view'))?.id ?? 'checkouts';
  const select = (next: View) => setParams(next === 'checkouts' ? { tab: 'marketing' } : { tab: 'marketing', view: next });
  return (
    <SubTabs label="Marketing" tabs={VIEWS} selected={view} onSelect={select}>
      {view === 'checkouts' && <AbandonedCheckouts />}
      {view === 'reminders' && <ReorderRemindersPanel />}
      {view === 'settings' && <RecoverySettingsForm />}
    </SubTabs>
  );
}
