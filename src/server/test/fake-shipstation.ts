import http from 'node:http';
import type { AddressInfo } from 'node:net';

type FakeShipStationRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
};

export const FAKE_SHIPSTATION_KEY = 'ss-key';
export const FAKE_SHIPSTATION_SECRET = 'ss-secret';
export const FAKE_TRACKING_V2 = '9400TRACK1';
export const FAKE_TRACKING_V1 = '1ZV1TRACK';
/** The carrier codes the fake's labels name, as ShipStation answers them: v2 `carrier_code`, v1 `carrierCode` (USPS through Stamps.com). */
export const FAKE_CARRIER_V2 = 'usps';
export const FAKE_CARRIER_V1 = 'stamps_com';

/** An error answer, or no answer: 'drop' closes the connection unanswered, 'hang' never answers (a timeout). */
type FakeShipStationFailure = { status: number; message: string } | 'drop' | 'hang';

/** A one-page PDF (a 4 × 6 in page reading "FAKE LABEL"), with its cross-reference offsets counted. */
function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 36 300 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 288 432] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** The label PDF the fake answers: v1 inside the purchase's answer (`labelData`, base64), v2 at its `label_download` addresses. */
export const FAKE_LABEL_PDF = onePagePdf('FAKE LABEL');
/** Where the fake's v2 label is downloaded (after its own address). */
export const FAKE_LABEL_V2_PATH = '/v2/downloads/6/fake/label-se-label-1.pdf';

/**
 * A local stand-in for ShipStation's v1 (Basic auth) and v2 (API-Key header) APIs, used by the
 * HTTP tests and the browser journeys: it refuses a wrong key and records every request body.
 * `failAll` makes every route answer one error (e.g. 500) until `failAll(null)`.
 */
export function fakeShipStation() {
  const requests: FakeShipStationRequest[] = [];
  let failure: FakeShipStationFailure | null = null;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = req.url ?? '';
      let body: Record<string, unknown> | null = null;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      } catch {
        body = { unparsable: raw };
      }
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      const send = (status: number, json: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (failure === 'drop') return req.socket.destroy();
      if (failure === 'hang') return;
      if (failure) return send(failure.status, { message: failure.message });
      const [pathname = '', search = ''] = path.split('?');
      const query = new URLSearchParams(search);
      const v2 = path.startsWith('/v2/');
      const basic = `Basic ${Buffer.from(`${FAKE_SHIPSTATION_KEY}:${FAKE_SHIPSTATION_SECRET}`).toString('base64')}`;
      const authorised = v2 ? req.headers['api-key'] === FAKE_SHIPSTATION_KEY : req.headers.authorization === basic;
      // ShipStation's label downloads are public addresses (a browser opens them without the key).
      if (path === FAKE_LABEL_V2_PATH && req.method === 'GET')
        return res.writeHead(200, { 'content-type': 'application/pdf' }).end(FAKE_LABEL_PDF);
      if (!authorised) return send(401, { message: 'Unauthorized' });
      if (path === '/v2/carriers') return send(200, { carriers: [{ carrier_id: 'se-1', friendly_name: 'USPS' }] });
      if (path === '/carriers') return send(200, [{ name: 'USPS', code: 'stamps_com' }]);
      if (path === '/v2/shipments' && req.method === 'POST')
        return send(200, { has_errors: false, shipments: [{ shipment_id: 'se-ship-1' }] });
      if (path === '/v2/labels/shipment/se-ship-1')
        return send(200, {
          label_id: 'se-label-1',
          tracking_number: FAKE_TRACKING_V2,
          carrier_code: FAKE_CARRIER_V2,
          service_code: 'usps_priority_mail',
          status: 'completed',
          label_format: 'pdf',
          label_layout: '4x6',
          // As ShipStation answers it: the label at one address per format, `href` the format asked for.
          label_download: {
            pdf: `http://${req.headers.host}${FAKE_LABEL_V2_PATH}`,
            png: `http://${req.headers.host}${FAKE_LABEL_V2_PATH.replace(/\.pdf$/, '.png')}`,
            zpl: `http://${req.headers.host}${FAKE_LABEL_V2_PATH.replace(/\.pdf$/, '.zpl')}`,
            href: `http://${req.headers.host}${FAKE_LABEL_V2_PATH}`,
          },
        });

      if (path === '/v2/labels/se-label-1/void' && req.method === 'PUT')
        return send(200, { approved: true, message: 'Request for refund submitted.' });
      if (path === '/shipments/voidlabel' && req.method === 'POST')
        return send(200, { approved: true, message: 'Label voided successfully' });
      if (path === '/v2/labels/se-label-1/track') return send(200, { tracking_number: FAKE_TRACKING_V2, status_description: 'In Transit' });
      if (path === '/orders/createorder') return send(200, { orderId: 777, orderNumber: body?.orderNumber });
      if (path === '/orders/createlabelfororder')
        return send(200, {
          shipmentId: 55,
          orderId: body?.orderId,
          trackingNumber: FAKE_TRACKING_V1,
          carrierCode: body?.carrierCode ?? FAKE_CARRIER_V1,
          serviceCode: body?.serviceCode ?? null,
          voided: false,
          labelData: FAKE_LABEL_PDF.toString('base64'),
        });
      if (path.startsWith('/v2/inventory'))
        return req.method === 'GET' ? send(200, { inventory: [{ sku: 'ECO-1', available: 3 }] }) : send(200, { ok: true });
      if (path.startsWith('/v2/shipments')) return send(200, { shipments: [], total: 0 });
      if (pathname === '/shipments' && req.method === 'GET') {
        const tracking = query.get('trackingNumber');
        const shipments = tracking ? [{ shipmentId: 55, trackingNumber: tracking, voided: false }] : [];
        return send(200, { shipments, total: shipments.length, page: 1, pages: 1 });
      }
      if (pathname === '/products' && req.method === 'GET')
        return send(200, { products: [{ sku: 'ECO-1', name: 'Eco Cloth' }], total: 1, page: 1, pages: 1 });
      if (/^\/products\/[^/]+$/.test(pathname) && req.method === 'PUT')
        return send(200, { ...body, productId: Number(pathname.split('/')[2]) });
      return send(404, { message: `No route ${req.method} ${path}` });
    });
  });
  return {
    requests,
    failAll: (f: FakeShipStationFailure | null) => {
      failure = f;
    },
    listen: (port = 0) =>
      new Promise<string>((r) => server.listen(port, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
