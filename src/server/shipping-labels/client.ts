import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http/errors.js';
import { SHIPSTATION_PROBLEMS, type ShipStationProblem } from './messages.js';
/**
 * ShipStation over HTTP: API v2 (header API-Key) by default, v1 (Basic auth with key and secret)
 * when the owner selects it. Only the calls the shop uses; answers are passed through as JSON.
 */
type ShipStationSettings = { apiKey: string; apiSecret: string; version: 'v1' | 'v2' };
export type ShipTo = { name: string; address: string; city: string; state: string; zip: string; country: string; email?: string | null };
export type LabelOrder = {
  id: string;
  orderNumber: string;
  createdAt: string;
  email: string | null;
  totalCents: number;
  shipTo: ShipTo;
  /** `options`: the variant's option names and values (v1 sends them; v2's shipment items have no such field). */
  items: { sku: string | null; name: string; quantity: number; priceCents: number; options?: { name: string; value: string }[] }[];
  weightOz: number;
};
/** The label to print as ShipStation gave it: v1's PDF itself (base64), or v2's download address. */
export type LabelFile = { mediaType: string; contentBase64: string | null; downloadUrl: string | null };
/**
 * A bought label: its tracking number, the carrier ShipStation bought it from (v2 `carrier_code`,
 * v1 `carrierCode`), what ShipStation answered (less the PDF) and the label to print, when given.
 */
type LabelResult = { trackingNumber: string | null; carrierCode: string | null; data: Record<string, unknown>; file: LabelFile | null };

/** v2's `label_download`: the PDF's address (`pdf`, else `href`), when it is a web address. */
function v2LabelFile(download: unknown): LabelFile | null {
  const d = (download ?? {}) as { pdf?: unknown; href?: unknown };
  const url = [d.pdf, d.href].map(text).find((u) => u !== null && /^https?:\/\//.test(u));
  return url ? { mediaType: 'application/pdf', contentBase64: null, downloadUrl: url } : null;
}

/** v1's `labelData`: the label as a base64 PDF (whitespace dropped), when it reads as one. */
function v1LabelFile(labelData: unknown): LabelFile | null {
  const data = typeof labelData === 'string' ? labelData.replace(/\s+/g, '') : '';
  if (!data || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return null;
  return { mediaType: 'application/pdf', contentBase64: data, downloadUrl: null };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

export class ShipStationError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** keys: ShipStation refused the keys; unavailable: it did not answer (5xx, timeout, network); refused: it refused the request itself. */
    readonly problem: ShipStationProblem = 'refused',
  ) {
    super(message);
  }
}

/** What ShipStation's answer (or its absence) means for the owner: their keys, an outage, or the request. */
export function shipStationProblem(status: number | null): ShipStationProblem {
  if (status === null || status >= 500 || status === 408 || status === 429) return 'unavailable';
  if (status === 401 || status === 403) return 'keys';
  return 'refused';
}

/** The failure as the owner reads it: the kind first, then ShipStation's own words when it gave some. */
function problemMessage(problem: ShipStationProblem, detail: string): string {
  return problem === 'refused' ? detail : `${SHIPSTATION_PROBLEMS[problem]} (${detail})`;
}

export class ShipStationClient {
  constructor(
    private readonly settings: ShipStationSettings,
    private readonly bases: { v1: string; v2: string },
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly timeoutMs = 20_000,
  ) {}

  private log: Pick<FastifyBaseLogger, 'warn'> | null = null;

  /** The request's log: every failed call is written there with its kind (keys, unavailable, refused). */
  withLog(log: Pick<FastifyBaseLogger, 'warn'>): this {
    this.log = log;
    return this;
  }

  private fail(err: ShipStationError, method: string, path: string): never {
    this.log?.warn(
      { shipstation: { method, path, status: err.status, problem: err.problem } },
      `ShipStation ${err.problem === 'keys' ? 'rejected the API keys' : err.problem === 'unavailable' ? 'is not answering' : 'refused the request'}: ${err.message}`,
    );
    throw err;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const v2 = this.settings.version === 'v2';
    const url = `${v2 ? this.bases.v2 : this.bases.v1}${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (v2) headers['API-Key'] = this.settings.apiKey;
    else headers.authorization = `Basic ${Buffer.from(`${this.settings.apiKey}:${this.settings.apiSecret}`).toString('base64')}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await this.fetchImpl(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      // No answer at all: a timeout, a refused or dropped connection, a name that does not resolve.
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const detail = timedOut ? `no answer within ${this.timeoutMs / 1000} s` : 'could not connect';
      return this.fail(new ShipStationError(problemMessage('unavailable', detail), 503, 'unavailable'), method, path);
    }
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = { raw: text.slice(0, 500) };
    }
    if (!res.ok) {
      const j = json as { message?: string; Message?: string; errors?: { message?: string }[] } | null;
      const message = j?.errors?.[0]?.message ?? j?.message ?? j?.Message ?? `ShipStation answered ${res.status}`;
      const problem = shipStationProblem(res.status);
      return this.fail(new ShipStationError(problemMessage(problem, message), res.status, problem), method, path);
    }
    return json as T;
  }

  /** Whether ShipStation takes the keys; when not, why (the keys, or ShipStation not answering) in the owner's words. */
  async test(): Promise<{ connected: true } | { connected: false; problem: ShipStationProblem; message: string }> {
    try {
      await this.carriers();
      return { connected: true };
    } catch (err) {
      if (err instanceof ShipStationError) return { connected: false, problem: err.problem, message: err.message };
      return { connected: false, problem: 'unavailable', message: SHIPSTATION_PROBLEMS.unavailable };
    }
  }

  carriers(): Promise<unknown> {
    return this.call('GET', this.settings.version === 'v2' ? '/v2/carriers' : '/carriers');
  }

  shipments(query: string): Promise<unknown> {
    const q = query ? `?${query}` : '';
    return this.call('GET', this.settings.version === 'v2' ? `/v2/shipments${q}` : `/shipments${q}`);
  }

  createShipment(body: unknown): Promise<unknown> {
    return this.settings.version === 'v2' ? this.call('POST', '/v2/shipments', body) : this.call('POST', '/orders/createorder', body);
  }

  inventory(): Promise<unknown> {
    return this.call('GET', this.settings.version === 'v2' ? '/v2/inventory' : '/products');
  }

  /** v2 takes inventory changes in one call; v1 updates one product at /products/{productId}. */
  updateInventory(inventoryData: unknown): Promise<unknown> {
    if (this.settings.version === 'v2') return this.call('POST', '/v2/inventory', inventoryData);
    const productId = (inventoryData as { productId?: unknown } | null)?.productId;
    if (typeof productId !== 'number' && typeof productId !== 'string') {
      return Promise.reject(new HttpError(400, 'inventoryData.productId is required with ShipStation API v1'));
    }
    return this.call('PUT', `/products/${encodeURIComponent(String(productId))}`, inventoryData);
  }

  /** Creates the shipment for an order and buys its label; answers the tracking number and what ShipStation returned. */
  async createLabel(order: LabelOrder): Promise<LabelResult> {
    if (this.settings.version === 'v2') {
      const created = await this.call<{ shipments?: { shipment_id?: string; errors?: unknown[] }[]; has_errors?: boolean }>(
        'POST',
        '/v2/shipments',
        {
          shipments: [
            {
              external_shipment_id: order.id,
              ship_to: {
                name: order.shipTo.name,
                address_line1: order.shipTo.address,
                city_locality: order.shipTo.city,
                state_province: order.shipTo.state,
                postal_code: order.shipTo.zip,
                country_code: order.shipTo.country || 'US',
                email: order.shipTo.email ?? order.email ?? undefined,
              },
              items: order.items.map((i) => ({ name: i.name, sku: i.sku ?? undefined, quantity: i.quantity })),
              packages: [{ weight: { value: order.weightOz, unit: 'ounce' } }],
            },
          ],
        },
      );
      const shipmentId = created.shipments?.[0]?.shipment_id;
      if (created.has_errors || !shipmentId) throw new ShipStationError('ShipStation could not create the shipment', 502);
      const label = await this.call<{ tracking_number?: string; label_id?: string; carrier_code?: string; label_download?: unknown }>(
        'POST',
        `/v2/labels/shipment/${encodeURIComponent(shipmentId)}`,
        // A PDF, by download address: what the owner's printer takes (ShipStation keeps it 90 days).
        { label_format: 'pdf', label_layout: '4x6', label_download_type: 'url' },
      );
      return {
        trackingNumber: text(label.tracking_number),
        carrierCode: text(label.carrier_code),
        data: { version: 'v2', shipmentId, label },
        file: v2LabelFile(label.label_download),
      };
    }
    const created = await this.call<{ orderId?: number }>('POST', '/orders/createorder', {
      orderNumber: order.orderNumber,
      orderKey: order.id,
      orderDate: order.createdAt,
      orderStatus: 'awaiting_shipment',
      customerEmail: order.email,
      amountPaid: order.totalCents / 100,
      billTo: { name: order.shipTo.name },
      shipTo: {
        name: order.shipTo.name,
        street1: order.shipTo.address,
        city: order.shipTo.city,
        state: order.shipTo.state,
        postalCode: order.shipTo.zip,
        country: order.shipTo.country || 'US',
      },
      items: order.items.map((i) => ({
        sku: i.sku,
        name: i.name,
        quantity: i.quantity,
        unitPrice: i.priceCents / 100,
        ...(i.options?.length ? { options: i.options } : {}),
      })),
      weight: { value: order.weightOz, units: 'ounces' },
    });
    if (!created.orderId) throw new ShipStationError('ShipStation could not create the order', 502);
    const { labelData, ...label } = await this.call<{
      trackingNumber?: string;
      shipmentId?: number;
      carrierCode?: string;
      labelData?: unknown;
    }>('POST', '/orders/createlabelfororder', {
      orderId: created.orderId,
      carrierCode: 'stamps_com',
      serviceCode: 'usps_priority_mail',
      packageCode: 'package',
      shipDate: new Date().toISOString().slice(0, 10),
      weight: { value: order.weightOz, units: 'ounces' },
    });
    return {
      trackingNumber: text(label.trackingNumber),
      carrierCode: text(label.carrierCode),
      // The PDF is kept apart (shipping_label_files), not in the order's row.
      data: { version: 'v1', orderId: created.orderId, label },
      file: v1LabelFile(labelData),
    };
  }

  /** Voids a label bought by createLabel (v2: by its label id; v1: by its shipment id). */
  async voidLabel(data: Record<string, unknown>): Promise<void> {
    const label = (data.label ?? {}) as { label_id?: string; shipmentId?: number };
    if (data.version === 'v2') {
      if (!label.label_id) throw new ShipStationError('This order has no ShipStation label to void', 400);
      const r = await this.call<{ approved?: boolean; message?: string }>(
        'PUT',
        `/v2/labels/${encodeURIComponent(label.label_id)}/void`,
        {},
      );
      if (r?.approved === false) throw new ShipStationError(r.message ?? 'ShipStation did not approve the void', 502);
      return;
    }
    if (!label.shipmentId) throw new ShipStationError('This order has no ShipStation label to void', 400);
    const r = await this.call<{ approved?: boolean; message?: string }>('POST', '/shipments/voidlabel', { shipmentId: label.shipmentId });
    if (r?.approved === false) throw new ShipStationError(r.message ?? 'ShipStation did not approve the void', 502);
  }

  /** Tracking as ShipStation knows it. */
  async tracking(data: Record<string, unknown>, trackingNumber: string | null): Promise<unknown> {
    if (data.version === 'v2') {
      const labelId = (data.label as { label_id?: string } | undefined)?.label_id;
      if (!labelId) throw new ShipStationError('This order has no ShipStation label yet', 400);
      return this.call('GET', `/v2/labels/${encodeURIComponent(labelId)}/track`);
    }
    if (!trackingNumber) throw new ShipStationError('This order has no tracking number yet', 400);
    return this.call('GET', `/shipments?trackingNumber=${encodeURIComponent(trackingNumber)}`);
  }
}
