import { Button } from '../../ui/button.js';
import { useEmailConnection } from '../api/messaging-api.js';

export const EMAIL_CONNECTION_FAILED = 'Email connection failed. Check SMTP configuration.';

export type ConnectionState = 'testing' | 'connected' | 'disconnected';

/** Testing while the check runs (also on a re-test), then what the server found. */
export function useEmailConnectionState(): { state: ConnectionState; retest: () => void } {
  const q = useEmailConnection();
  const state: ConnectionState = q.isFetching ? 'testing' : q.data?.connected ? 'connected' : 'disconnected';
  return { state, retest: () => void q.refetch() };
}

const BADGE: Record<ConnectionState, { label: string; cls: string; dot: string }> = {
  testing: { label: 'Testing', cls: 'bg-stone-100 text-stone-800', dot: 'bg-stone-500 animate-pulse motion-reduce:animate-none' },
  connected: { label: 'Connected', cls: 'bg-green-100 text-green-900', dot: 'bg-green-600' },
  disconnected: { label: 'Disconnected', cls: 'bg-red-100 text-red-900', dot: 'bg-red-600' },
};

export function ConnectionBadge({ state }: { state: ConnectionState }) {
  const b = BADGE[state];
  return (
    <span className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-semibold ${b.cls}`}>
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${b.dot}`} />
      {b.label}
    </span>
  );
}

/** The e-mail service's state at the top of the Email tab, with the spec's hint when it is down. */
export function EmailConnectionStatus() {
  const { state, retest } = useEmailConnectionState();
  return (
    <section
      aria-label="Email connection"
      className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex flex-col gap-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-stone-900" role="status" aria-live="polite">
          Email service: <ConnectionBadge state={state} />
        </p>
        {state === 'disconnected' && <p className="text-sm text-red-800">{EMAIL_CONNECTION_FAILED}</p>}
        {state === 'connected' && <p className="text-sm text-stone-700">E-mails from the outbox are being delivered.</p>}
        {state === 'testing' && <p className="text-sm text-stone-700">Checking the mail server…</p>}
      </div>
      <Button variant="outline" size="sm" onClick={retest} disabled={state === 'testing'}>
        {state === 'testing' ? 'Testing…' : 'Re-test'}
      </Button>
    </section>
  );
}
