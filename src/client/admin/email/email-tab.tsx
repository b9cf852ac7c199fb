import { EmailOutboxPanel } from '../components/email-outbox-panel.js';

export default function EmailTab() {
  return <EmailOutboxPanel />;
}
