import { formatCents } from '../../../shared/money.js';
import type { OrderView } from '../../../shared/schemas/orders.js';
import { Button } from '../../ui/button.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { toast } from '../../ui/toast.js';
import { formatDateTime } from '../../lib/format.js';
import { DataTable, ListState, Panel, type Column } from '../components/admin-ui.js';
import { formatAddress } from '../../../shared/address.js';
import { useAdminOrder } from './order-api.js';
import type { OrdersNav } from './orders-tab.js';

const CHECKLIST = [
  'All items picked and counted',
  'Items checked for damage',
  'Fragile items wrapped',
  'Packing slip placed in the box',
  'Box sealed and shipping label attached',
];

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function itemCount(order: OrderView): number {
  return order.items.reduce((n, it) => n + it.quantity, 0);
}

/** A self-contained HTML document (inline style, no script) for the print window. */
function printDocument(order: OrderView): string {
  const origin = window.location.origin;
  const abs = (src: string) => (/^(https?:|data:)/.test(src) ? src : `${origin}${src.startsWith('/') ? '' : '/'}${src}`);
  const rows = order.items
    .map(
      (it) => `<tr>
<td>${it.image ? `<img src="${esc(abs(it.image))}" alt="" width="48" height="48">` : ''}</td>
<td>${esc(it.name)}</td><td>${esc(it.size)}</td><td>${esc(it.color)}</td><td>${esc(it.sku ?? 'N/A')}</td>
<td class="num">${it.quantity}</td><td class="box"><span></span></td></tr>`,
    )
    .join('');
  const address = formatAddress(order.shippingAddress, { email: true, trimLines: true }).map(esc).join('<br>') || '—';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Packing slip ${esc(order.id)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1c1917;margin:32px;font-size:14px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.meta{display:grid;grid-template-columns:repeat(2,1fr);gap:4px 24px}
table{width:100%;border-collapse:collapse;margin-top:8px}th,td{border:1px solid #d6d3d1;padding:6px 8px;text-align:left;vertical-align:middle}
th{background:#f5f5f4;font-size:12px;text-transform:uppercase}.num{text-align:right}
img{object-fit:cover;border-radius:4px}.box span{display:inline-block;width:18px;height:18px;border:2px solid #44403c}
ul{list-style:none;padding:0}li{margin:6px 0}li:before{content:"";display:inline-block;width:14px;height:14px;border:2px solid #44403c;margin-right:8px;vertical-align:-3px}
.total{font-size:18px;font-weight:700;text-align:right;margin-top:16px}.sign{margin-top:48px;display:flex;gap:48px}
.sign div{flex:1;border-top:1px solid #1c1917;padding-top:4px;font-size:12px}
</style></head><body>
<h1>Packing Slip</h1>
<div class="meta"><div>Order ID: <strong>${esc(order.id)}</strong></div><div>Date: ${esc(formatDateTime(order.createdAt))}</div>
<div>Status: ${esc(order.status)}</div><div>Items: ${itemCount(order)}</div></div>
<h2>Ship To</h2><p>${address}</p>
<h2>Items</h2><table><thead><tr><th>Image</th><th>Name</th><th>Size</th><th>Color</th><th>SKU</th><th class="num">Qty</th><th>Packed</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No items on this order.</td></tr>'}</tbody></table>
<h2>Packing checklist</h2><ul>${CHECKLIST.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>
<p class="total">Order total: ${esc(formatCents(order.totalCents))}</p>
<div class="sign"><div>Packed by (signature)</div><div>Date</div></div>
</body></html>`;
}

function printSlip(order: OrderView): void {
  const w = window.open('', '_blank', 'width=900,height=1000');
  if (!w) {
    toast({ title: 'Could not open the print window', description: 'Allow pop-ups for this site and try again.', variant: 'destructive' });
    return;
  }
  w.document.open();
  w.document.write(printDocument(order));
  w.document.close();
  w.focus();
  // Let images load before the print dialog snapshots the page.
  const images = Array.from(w.document.images);
  const loaded = images.map(
    (img) =>
      new Promise<void>((resolve) => {
        if (img.complete) return resolve();
        img.addEventListener('load', () => resolve(), { once: true });
        img.addEventListener('error', () => resolve(), { once: true });
      }),
  );
  void Promise.all(loaded).then(() => w.print());
}

/** The items to pack, as the spec lists them; on a phone one card per item, so Qty and Packed stay in view. */
const SLIP_COLUMNS: Column<OrderView['items'][number]>[] = [
  {
    header: 'Image',
    cell: (it) =>
      it.image ? <img src={it.image} alt="" width={40} height={40} className="inline-block h-10 w-10 rounded object-cover" /> : null,
  },
  { header: 'Name', primary: true, className: 'max-md:font-semibold', cell: (it) => it.name },
  { header: 'Size', cell: (it) => it.size },
  { header: 'Color', cell: (it) => it.color },
  { header: 'SKU', cell: (it) => <span className="font-mono">{it.sku ?? 'N/A'}</span> },
  { header: 'Qty', numeric: true, cell: (it) => it.quantity },
  {
    header: 'Packed',
    cell: () => <span aria-label="Not packed yet" role="img" className="inline-block h-5 w-5 border-2 border-stone-700 align-middle" />,
  },
];

export function PackingSlip({ orderId, nav }: { orderId: string; nav: OrdersNav }) {
  const { data, error, isPending, refetch } = useAdminOrder(orderId);
  const order = data?.order;
  return (
    <Panel
      title="Packing Slip"
      actions={
        <>
          <Button variant="ghost" onClick={nav.list}>
            <ArrowLeftIcon size={16} /> Back to orders
          </Button>
          {order && <Button onClick={() => printSlip(order)}>Print</Button>}
        </>
      }
    >
      <ListState isPending={isPending} error={error} onRetry={() => void refetch()} loadingLabel="Loading order">
        {order && (
          <div className="flex flex-col gap-6 text-sm">
            <dl className="grid gap-2 sm:grid-cols-2">
              <div>
                <dt className="inline font-medium text-stone-600">Order ID: </dt>
                <dd className="inline break-all font-mono">{order.id}</dd>
              </div>
              <div>
                <dt className="inline font-medium text-stone-600">Date: </dt>
                <dd className="inline">{formatDateTime(order.createdAt)}</dd>
              </div>
              <div>
                <dt className="inline font-medium text-stone-600">Status: </dt>
                <dd className="inline capitalize">{order.status}</dd>
              </div>
              <div>
                <dt className="inline font-medium text-stone-600">Items: </dt>
                <dd className="inline">{itemCount(order)}</dd>
              </div>
            </dl>
            <section>
              <h3 className="mb-1 text-base font-semibold">Ship To</h3>
              <p>
                {formatAddress(order.shippingAddress, { email: true, trimLines: true }).map((l, i) => (
                  <span key={i} className="block">
                    {l}
                  </span>
                ))}
              </p>
            </section>
            {order.items.length === 0 ? (
              <p className="border-y border-stone-200 py-3 text-center text-stone-700">No items on this order.</p>
            ) : (
              <DataTable caption="Items to pack" rows={order.items} rowKey={(it) => it.id} columns={SLIP_COLUMNS} />
            )}
            <section>
              <h3 className="mb-1 text-base font-semibold">Packing checklist</h3>
              <ul className="flex flex-col gap-1">
                {CHECKLIST.map((c) => (
                  <li key={c} className="flex items-center gap-2">
                    <span aria-hidden="true" className="inline-block h-4 w-4 border-2 border-stone-700" />
                    {c}
                  </li>
                ))}
              </ul>
            </section>
            <p className="text-right text-lg font-bold">Order total: {formatCents(order.totalCents)}</p>
            <div className="mt-6 flex gap-8">
              <p className="flex-1 border-t border-stone-900 pt-1 text-xs">Packed by (signature)</p>
              <p className="flex-1 border-t border-stone-900 pt-1 text-xs">Date</p>
            </div>
          </div>
        )}
      </ListState>
    </Panel>
  );
}
