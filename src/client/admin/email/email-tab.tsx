import { useSearchParams } from 'react-router';
import { EmailOutboxPanel } from '../components/email-outbox-panel.js';
import { ContactMessagesPanel } from '../messages/contact-messages-panel.js';
import { EmailConnectionStatus } from './email-connection-status.js';
import { SubTabs } from './sub-tabs.js';
import { TemplatesPanel } from './templates-panel.js';

const VIEWS = [
  { id: 'templates', label: 'Templates' },
  { id: 'outbox', label: 'Outbox' },
  { id: 'messages', label: 'Messages' },
] as const;
type View = (typeof VIEWS)[number]['id'];
const VIEW_PARAM = 'view';

function toView(value: string | null): View {
  return VIEWS.find((v) => v.id === value)?.id ?? 'templates';
}

/** Email: the connection at the top, then Templates, the Outbox and contact Messages (`?view=`). */
export default function EmailTab() {
  const [params, setParams] = useSearchParams();
  const view = toView(params.get(VIEW_PARAM));
  const select = (next: View) => {
    const p = new URLSearchParams(params);
    if (next === 'templates') p.delete(VIEW_PARAM);
    else p.set(VIEW_PARAM, next);
    p.delete('outboxPage');
    setParams(p);
  };

  return (
    <div className="flex flex-col gap-6">
      <EmailConnectionStatus />
      <SubTabs label="Email sections" tabs={VIEWS} selected={view} onSelect={select}>
        {view === 'templates' && <TemplatesPanel />}
        {view === 'outbox' && <EmailOutboxPanel />}
        {view === 'messages' && <ContactMessagesPanel />}
      </SubTabs>
    </div>
  );
}
