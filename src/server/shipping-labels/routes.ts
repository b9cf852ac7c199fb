import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { requireAdmin } from '../http/auth.js';
import { nowIso } from '../lib/ids.js';
import { accountActor } from '../orders/events.js';
import { CONTENT_MESSAGES } from '../../shared/schemas/content.js';
import { ShipStationError } from './client.js';
import { SHIPSTATION_MESSAGES as M, SHIPSTATION_NOT_SET_UP } from './messages.js';
import { BulkOrderIdsInput } from '../../shared/schemas/bulk.js';
import { eachOrder } from '../orders/bulk-orders.js';
import { loadShipStation, orderLabelFile, orderTracking, sendOrderToShipStation, shipStationVersion, voidOrderLabel } from './service.js';

const Id = z.object({ id: z.string().min(1).max(100) });

const disabled = () => new HttpError(503, CONTENT_MESSAGES.shipstationDisabled);

type LabelDeps = AppDeps & { shipstationFetch?: typeof fetch };

function labelService(deps: LabelDeps) {
  const { db, config } = deps;
  return {
    // Each failed call is logged on the request with its kind (the keys refused, or ShipStation not answering).
    client: async (req: FastifyRequest) =>
      (await loadShipStation(db, config, deps.shipstationFetch))?.withLog(req.log) ?? Promise.reject(disabled()),
    passThrough: (fallback: string) => (err: unknown) => {
      if (err instanceof HttpError) throw err;
      throw new HttpError(502, err instanceof ShipStationError ? `${fallback}: ${err.message}` : fallback);
    },
  };
}

/** ShipStation's own endpoints, passed through for the back office (integrations surface, admins only). */
export async function registerShipStationRoutes(app: FastifyInstance, deps: LabelDeps): Promise<void> {
  const { db, config } = deps;
  const { client, passThrough } = labelService(deps);

  app.get('/api/shipstation/test', access.admin, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const c = await loadShipStation(db, config, deps.shipstationFetch);
    // The admin tab says which API is in use; the version is a setting, not a secret.
    const version = await shipStationVersion(db);
    if (!c) return { connected: false, enabled: false, version };
    const result = await c.withLog(req.log).test();
    // Not connected: why, told apart (the keys refused, or ShipStation not answering), in the owner's words.
    return { ...result, enabled: true, version };
  });
  app.get('/api/shipstation/carriers', access.admin, async (req) => (await client(req)).carriers().catch(passThrough(M.carriers)));
  app.get('/api/shipstation/shipments', access.admin, async (req) => {
    const query = new URLSearchParams(req.query as Record<string, string>).toString();
    if (query.length > 500) throw new HttpError(400, 'The shipment filter is too long');
    return (await client(req)).shipments(query).catch(passThrough(M.shipments));
  });
  app.post('/api/shipstation/create-shipment', access.admin, async (req) => {
    const body = parseInput(z.object({}).passthrough(), req.body);
    return (await client(req)).createShipment(body).catch(passThrough(M.createShipment));
  });
  app.get('/api/shipstation/inventory', access.admin, async (req) => (await client(req)).inventory().catch(passThrough(M.inventory)));
  app.post('/api/shipstation/inventory/update', access.admin, async (req) => {
    const { inventoryData } = parseInput(z.object({ inventoryData: z.unknown() }).strict(), req.body);
    if (inventoryData === undefined) throw new HttpError(400, 'inventoryData is required');
    return (await client(req)).updateInventory(inventoryData).catch(passThrough(M.updateInventory));
  });

  /** A sample order sent to ShipStation, so the owner can see the connection work end to end. */
  app.post('/api/shipstation/test-order', access.admin, async (req) => {
    const c = await client(req);
    const sample = {
      shipments: [
        {
          external_shipment_id: `test-${Date.now()}`,
          ship_to: {
            name: 'Test Customer',
            address_line1: '1 Test Street',
            city_locality: 'Austin',
            state_province: 'TX',
            postal_code: '78701',
            country_code: 'US',
          },
          packages: [{ weight: { value: 8, unit: 'ounce' } }],
        },
      ],
    };
    const v1Sample = {
      orderNumber: `TEST-${Date.now()}`,
      orderDate: nowIso(),
      orderStatus: 'awaiting_shipment',
      billTo: { name: 'Test Customer' },
      shipTo: { name: 'Test Customer', street1: '1 Test Street', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    };
    const v1 = (await shipStationVersion(db)) === 'v1';
    const result = await c.createShipment(v1 ? v1Sample : sample).catch(passThrough(M.testOrder));
    return { ok: true, result };
  });
}

/** An order's label and tracking (admin surface). */
export async function registerLabelRoutes(app: FastifyInstance, deps: LabelDeps): Promise<void> {
  const { db, dialect, config } = deps;
  const { client } = labelService(deps);

  /**
   * Send to ShipStation: buy the order's one label. Only a paid order, not cancelled, with a
   * complete address gets one (orders/status-rules.ts). The order is claimed first (a conditional UPDATE on `label_state`), so repeated or
   * simultaneous requests make one shipment and one e-mail; a failed purchase releases the claim.
   * Once bought, the order is marked shipped, the shipping e-mail queued and the label kept on the
   * timeline; voiding it (below) is the only way to buy another.
   */
  app.post('/api/admin/orders/:id/shipstation', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const actor = accountActor(requireAdmin(req));
    const c = await client(req);
    return sendOrderToShipStation(db, dialect, c, id, actor);
  });

  /**
   * Voids the order's label at ShipStation, the only way to buy another: the label, its file and its
   * tracking number are cleared, the order goes back to the status it had before the label (a
   * cancelled order stays cancelled; no e-mail), and the timeline keeps the voided label.
   */
  app.post('/api/admin/orders/:id/label/void', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const actor = accountActor(requireAdmin(req));
    const c = await client(req);
    return voidOrderLabel(db, dialect, c, id, actor);
  });

  // The order list's "Buy labels": each selected order's one label, bought as above, each reported.
  app.post('/api/admin/orders/bulk/labels', access.admin, async (req) => {
    const { ids } = parseInput(BulkOrderIdsInput, req.body);
    const actor = accountActor(requireAdmin(req));
    const c = (await loadShipStation(db, config, deps.shipstationFetch))?.withLog(req.log);
    // Not set up: say where to set it up (the back office links to Settings → Integrations).
    if (!c) throw new HttpError(503, SHIPSTATION_NOT_SET_UP);
    const results = await eachOrder(db, ids, req.log, async (order) => {
      await sendOrderToShipStation(db, dialect, c, order.id, actor);
      return 'changed';
    });
    return { results };
  });

  /**
   * The order's label, to print: v1's PDF served by the shop (inline, never cached: it is a
   * postage-paid label), or a redirect to v2's download at ShipStation. Works without ShipStation
   * configured now: what it answered at purchase is kept.
   */
  app.get('/api/admin/orders/:id/label', access.admin, async (req, reply) => {
    const { id } = parseInput(Id, req.params);
    requireAdmin(req);
    const file = await orderLabelFile(db, id);
    reply.header('Cache-Control', 'no-store');
    if ('url' in file) return reply.redirect(file.url, 302);
    const name = `label-${file.orderNumber.replace(/[^A-Za-z0-9_-]/g, '')}.pdf`;
    reply.header('Content-Type', 'application/pdf');
    reply.header('Content-Disposition', `inline; filename="${name}"`);
    reply.header('X-Content-Type-Options', 'nosniff');
    return reply.send(file.pdf);
  });

  app.get('/api/admin/orders/:id/tracking', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const c = await client(req);
    return orderTracking(db, c, id);
  });
}
