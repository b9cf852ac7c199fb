import { useSearchParams } from 'react-router';
import { EmailOutboxPanel } from '../components/email-outbox-panel.js';
import { ContactMessagesPanel } from './contact-messages-panel.js';
import { EmailConnectionStatus } from '../components/email-connection-status.js';
import { SubTabs } from '../components/sub-tabs.js';
import { TemplatesPanel } from './templates-panel.js';
import { useContactMessageCounts } from '../api/messaging-api.js';
import { CONTACT_MESSAGE_TEXTS } from '../../../shared/schemas/contact-messages.js';

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
  const unread = useContactMessageCounts().data?.unread ?? 0;
  const tabs = VIEWS.map((v) => (v.id === 'messages' ? { ...v, label: CONTACT_MESSAGE_TEXTS.tabLabel(unread) } : v));
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
      <SubTabs label="Email sections" tabs={tabs} selected={view} onSelect={select}>
        {view === 'templates' && <TemplatesPanel />}
        {view === 'outbox' && <EmailOutboxPanel />}
        {view === 'messages' && <ContactMessagesPanel />}
      </SubTabs>
    </div>
  );
}
