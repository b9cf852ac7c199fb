import { Link } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../lib/api-client.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { Panel } from '../components/admin-ui.js';
import { ConnectionBadge, type ConnectionState } from '../components/email-connection-status.js';
import { SHIPSTATION_SETTINGS_HREF } from '../components/shipstation-not-set-up.js';
import { useCreateTestOrder, useShipStationCarriers, useShipStationStatus } from './shipstation-api.js';

/** Spec section 8, shipping-label service. */
export const SHIPSTATION_TEXT = {
  disabled: 'Info: ShipStation service temporarily disabled',
  connectedTitle: 'Connection Successful',
  connected: 'ShipStation API is properly configured and accessible.',
  failedTitle: 'Connection Failed',
  failed: 'Unable to connect to ShipStation. Please check your API credentials.',
  errorTitle: 'Connection Error',
  error: 'Failed to test ShipStation connection.',
  testOrderCreated: 'Test Order Created',
  testOrderFailed: 'Test Order Failed',
  testOrderDefault: 'Failed to create the test order. Please try again.',
  unavailableTitle: 'ShipStation is not answering',
} as const;

const SETTINGS_HREF = SHIPSTATION_SETTINGS_HREF;

const FEATURES = [
  'Send a paid order to ShipStation from its order details: the shipment is created and its label bought.',
  'The tracking number is saved on the order, the order is marked shipped and the customer gets the shipping notification e-mail.',
  "Get Tracking Info reads the parcel's latest tracking events from ShipStation.",
  'Lists the carriers connected to your ShipStation account.',
  'Works with ShipStation API v2 (an API key, the default) or v1 (API key and secret).',
];

const VERSION_TEXT = { v1: 'v1 (API key and secret)', v2: 'v2 (API key)' } as const;

/** The reference ShipStation gave the sample order, when its answer has one. */
function testOrderRef(result: unknown): string | null {
  const r = z
    .union([
      z.object({ shipments: z.array(z.object({ shipment_id: z.string() })).min(1) }),
      z.object({ orderNumber: z.string() }),
      z.object({ orderId: z.number() }),
    ])
    .safeParse(result);
  if (!r.success) return null;
  const d = r.data;
  return 'shipments' in d
    ? `shipment ${d.shipments[0]?.shipment_id}`
    : 'orderNumber' in d
      ? `order ${d.orderNumber}`
      : `order ${d.orderId}`;
}

function Carriers() {
  const { data, error, isPending } = useShipStationCarriers(true);
  if (isPending) return <p className="text-sm text-stone-700">Loading carriers…</p>;
  if (error) return <p className="text-sm text-red-800">Could not load carriers: {error.message}</p>;
  if (data.length === 0) return <p className="text-sm text-stone-700">No carriers are connected to this ShipStation account yet.</p>;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Carriers">
      {data.map((name) => (
        <li key={name} className="rounded-full border border-stone-200 bg-stone-50 px-3 py-1 text-sm text-stone-800">
          {name}
        </li>
      ))}
    </ul>
  );
}

/** ShipStation: whether the label service answers, a sample order to prove it end to end, and what it does. */
export default function ShipstationTab() {
  const status = useShipStationStatus();
  const testOrder = useCreateTestOrder();
  const state: ConnectionState = status.isFetching ? 'testing' : status.data?.connected ? 'connected' : 'disconnected';
  const enabled = status.data?.enabled ?? false;
  const version = status.data?.version ?? 'v2';

  const testConnection = async () => {
    const r = await status.refetch();
    if (r.isError || !r.data) toast({ title: SHIPSTATION_TEXT.errorTitle, description: SHIPSTATION_TEXT.error, variant: 'destructive' });
    else if (!r.data.enabled) toast({ title: SHIPSTATION_TEXT.disabled });
    else if (r.data.connected) toast({ title: SHIPSTATION_TEXT.connectedTitle, description: SHIPSTATION_TEXT.connected });
    // An outage is not the keys: say so, with the server's words.
    else if (r.data.problem === 'unavailable')
      toast({ title: SHIPSTATION_TEXT.unavailableTitle, description: r.data.message, variant: 'destructive' });
    else toast({ title: SHIPSTATION_TEXT.failedTitle, description: SHIPSTATION_TEXT.failed, variant: 'destructive' });
  };

  const createTestOrder = () =>
    testOrder.mutate(undefined, {
      onSuccess: ({ result }) => {
        const ref = testOrderRef(result);
        toast({
          title: SHIPSTATION_TEXT.testOrderCreated,
          description: ref ? `ShipStation created ${ref}.` : 'The sample order is in your ShipStation account.',
        });
      },
      onError: (err) => {
        // 503: not configured, which the spec treats as information rather than a failure.
        if (err instanceof ApiError && err.status === 503) return toast({ title: err.message || SHIPSTATION_TEXT.disabled });
        const message = err instanceof ApiError ? err.message.replace(/^Test Order Failed:?\s*/, '') : '';
        toast({
          title: SHIPSTATION_TEXT.testOrderFailed,
          description: message || SHIPSTATION_TEXT.testOrderDefault,
          variant: 'destructive',
        });
      },
    });

  return (
    <div className="flex flex-col gap-6">
      <Panel
        title="ShipStation"
        actions={
          <>
            <Button variant="outline" onClick={() => void testConnection()} disabled={status.isFetching}>
              {status.isFetching ? 'Testing…' : 'Test Connection'}
            </Button>
            <Button onClick={createTestOrder} disabled={testOrder.isPending}>
              {testOrder.isPending ? 'Creating…' : 'Create Test Order'}
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-4">
          <dl className="grid grid-cols-[max-content_1fr] items-center gap-x-6 gap-y-3">
            <dt className="text-sm font-medium text-stone-900">Connection</dt>
            <dd>
              <span role="status">
                <ConnectionBadge state={state} />
              </span>
            </dd>
            <dt className="text-sm font-medium text-stone-900">API version</dt>
            <dd className="text-sm text-stone-800">{status.data ? VERSION_TEXT[version] : '—'}</dd>
          </dl>

          {!status.isFetching && status.isError && (
            <Alert variant="destructive" title={SHIPSTATION_TEXT.errorTitle}>
              {SHIPSTATION_TEXT.error}
            </Alert>
          )}
          {!status.isFetching && status.data && !enabled && (
            <Alert title="ShipStation is not set up">
              Labels are off until ShipStation is turned on with its API key (and secret for v1). Enter them on the{' '}
              <Link to={SETTINGS_HREF} className="font-medium underline underline-offset-2">
                Settings tab
              </Link>
              .
            </Alert>
          )}
          {!status.isFetching && status.data?.enabled && !status.data.connected && status.data.problem === 'unavailable' && (
            <Alert variant="destructive" title={SHIPSTATION_TEXT.unavailableTitle}>
              {status.data.message}
            </Alert>
          )}
          {!status.isFetching && status.data?.enabled && !status.data.connected && status.data.problem !== 'unavailable' && (
            <Alert variant="destructive" title={SHIPSTATION_TEXT.failedTitle}>
              {status.data.message ?? SHIPSTATION_TEXT.failed} The keys are on the{' '}
              <Link to={SETTINGS_HREF} className="font-medium underline underline-offset-2">
                Settings tab
              </Link>
              .
            </Alert>
          )}
          {status.data?.connected && (
            <section aria-labelledby="shipstation-carriers" className="flex flex-col gap-2">
              <h3 id="shipstation-carriers" className="font-semibold text-stone-900">
                Carriers
              </h3>
              <Carriers />
            </section>
          )}
          <p className="text-sm text-stone-700">
            API keys, the API version and the on/off switch live on the{' '}
            <Link
              to={SETTINGS_HREF}
              className="rounded font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              Settings tab
            </Link>
            . Create Test Order sends a sample shipment to your ShipStation account so you can see the connection work end to end.
          </p>
        </div>
      </Panel>

      <Panel title="What the integration does">
        <ul className="grid gap-3 sm:grid-cols-2">
          {FEATURES.map((f) => (
            <li key={f} className="flex gap-3 rounded-lg border border-stone-200 p-3 text-sm text-stone-800">
              <span aria-hidden="true" className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-brand-600" />
              {f}
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}
