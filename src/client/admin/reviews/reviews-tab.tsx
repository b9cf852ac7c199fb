import { useSearchParams } from 'react-router';
import { Panel } from '../components/admin-ui.js';
import { SubTabs } from '../components/sub-tabs.js';
import { ReviewFiguresPanel } from './review-figures.js';
import { ReviewQueue } from './review-queue.js';
import { ReviewSettingsForm } from './review-settings-form.js';

const VIEWS = [
  { id: 'queue', label: 'Queue' },
  { id: 'figures', label: 'Figures' },
  { id: 'settings', label: 'Settings' },
] as const;
type View = (typeof VIEWS)[number]['id'];

/**
 * The owner's Reviews tab (issue [6/8]): the moderation queue, the figures and the review
 * settings, each a view in the address (`?tab=reviews&view=figures`); the queue is the default.
 * A switch of view starts it afresh (the queue's filters belong to the queue).
 */
export default function ReviewsTab() {
  const [params, setParams] = useSearchParams();
  const view: View = VIEWS.find((v) => v.id === params.get('view'))?.id ?? 'queue';
  const select = (next: View) => setParams(next === 'queue' ? { tab: 'reviews' } : { tab: 'reviews', view: next });
  return (
    <SubTabs label="Reviews" tabs={VIEWS} selected={view} onSelect={select}>
      {view === 'queue' && (
        <Panel title="Reviews">
          <ReviewQueue />
        </Panel>
      )}
      {view === 'figures' && <ReviewFiguresPanel />}
      {view === 'settings' && <ReviewSettingsForm />}
    </SubTabs>
  );
}
