import { useEffect, useState } from 'react';
import { formatCents } from '../../../shared/money.js';
import { orderNumberLabel, type OrderView } from '../../../shared/schemas/orders.js';
import { SITE_NAME } from '../../../shared/page-declaration.js';
import { useAdminSettings } from '../api/content-api.js';
import { Button } from '../../ui/button.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { toast } from '../../ui/toast.js';
import { formatDateTime } from '../../lib/format.js';
import { DataTable, ListState, Panel, type Column } from '../components/admin-ui.js';
import { formatAddress } from '../../../shared/address.js';
import { useAdminOrder } from './order-api.js';
import type { OrdersNav } from './orders-tab.js';
import { lineHeading } from '../../../shared/line-options.js';

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

/** The class the page's print style keys on (styles.css): while a slip is shown, only the slips print. */
export const PRINTING_CLASS = 'printing-slips';

/** While mounted, the browser's own print of the page prints the slips (`.slips-to-print`) alone, not the back office. */
export function usePrintOnlySlips(): void {
  useEffect(() => {
    document.body.classList.add(PRINTING_CLASS);
    return () => document.body.classList.remove(PRINTING_CLASS);
  }, []);
}

/** What a gift's slip says on paper, where the total is left off (the on-screen checkbox never prints). */
export const GIFT_MARK = 'Gift order';

/** What a slip prints besides the order: the sender, and whether money is left off (a gift). */
export type PackingSlipOptions = { shopName?: string; returnAddress?: string; hideTotal?: boolean };

/** The number the customer knows, as on their receipt (#15LUVMN4). */
export function slipOrderNumber(order: Pick<OrderView, 'id'>): string {
  return orderNumberLabel(order.id);
}

/** The order's state in words, as the back office's badges and the receipt say it. */
export function slipStatusWords(order: Pick<OrderView, 'status' | 'paymentStatus'>): string {
  if ((order.status === 'completed' || order.status === 'processing') && isPaidForSlip(order.paymentStatus))
    return order.status === 'completed' ? 'Paid, to ship' : 'Processing (paid, to ship)';
  return STATUS_WORDS[order.status];
}

const STATUS_WORDS: Record<OrderView['status'], string> = {
  pending: 'Pending',
  processing: 'Processing',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  completed: 'Completed',
};

const PAYMENT_WORDS: Record<OrderView['paymentStatus'], string> = {
  unpaid: 'Not paid yet',
  paid: 'Paid',
  failed: 'Payment failed',
  expired: 'Payment not completed',
  refunded: 'Refunded',
  partially_refunded: 'Paid, partly refunded',
};

function isPaidForSlip(p: OrderView['paymentStatus']): boolean {
  return p === 'paid' || p === 'partially_refunded';
}

/** The payment in words (an order the owner entered and has not recorded a payment for is "Not paid yet"). */
export function slipPaymentWords(order: Pick<OrderView, 'paymentStatus'>): string {
  return PAYMENT_WORDS[order.paymentStatus];
}

function returnLines(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** One slip's body (inline style, no script), for the print window; several make one print job. */
function slipHtml(order: OrderView, options: PackingSlipOptions): string {
  const origin = window.location.origin;
  const abs = (src: string) => (/^(https?:|data:)/.test(src) ? src : `${origin}${src.startsWith('/') ? '' : '/'}${src}`);
  const rows = order.items
    .map(
      (it) => `<tr>
<td>${it.image ? `<img src="${esc(abs(it.image))}" alt="" width="48" height="48">` : ''}</td>
<td>${esc(lineHeading(it).title)}</td><td>${esc(lineHeading(it).options)}</td><td>${esc(it.sku ?? 'N/A')}</td>
<td class="num">${it.quantity}</td><td class="box"><span></span></td></tr>`,
    )
    .join('');
  const address = formatAddress(order.shippingAddress, { email: true, trimLines: true }).map(esc).join('<br>') || '—';
  const from = returnLines(options.returnAddress)
    .map((l) => `<br>${esc(l)}`)
    .join('');
  return `<section class="slip">
<div class="head"><div class="from"><strong>${esc(options.shopName ?? SITE_NAME)}</strong>${from}</div>
<div><h1>Packing Slip</h1>${options.hideTotal ? `<div class="gift">${esc(GIFT_MARK)}</div>` : ''}<div class="number">Order ${esc(slipOrderNumber(order))}</div></div></div>
<div class="meta"><div>Order ID: ${esc(order.id)}</div><div>Date: ${esc(formatDateTime(order.createdAt))}</div>
<div>Status: <strong>${esc(slipStatusWords(order))}</strong></div><div>Payment: ${esc(slipPaymentWords(order))}</div><div>Items: ${itemCount(order)}</div></div>
<h2>Ship To</h2><p>${address}</p>
<h2>Items</h2><table><thead><tr><th>Image</th><th>Name</th><th>Options</th><th>SKU</th><th class="num">Qty</th><th>Packed</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No items on this order.</td></tr>'}</tbody></table>
<h2>Packing checklist</h2><ul>${CHECKLIST.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>
${options.hideTotal ? '' : `<p class="total">Order total: ${esc(formatCents(order.totalCents))}</p>`}
<div class="sign"><div>Packed by (signature)</div><div>Date</div></div>
</section>`;
}

/** A self-contained HTML document of one or more slips, each on its own page. */
function printDocument(orders: OrderView[], options: PackingSlipOptions): string {
  const title = orders.length === 1 ? `Packing slip ${esc(slipOrderNumber(orders[0]!))}` : `Packing slips (${orders.length})`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1c1917;margin:32px;font-size:14px}
.slip+.slip{break-before:page;page-break-before:always;margin-top:32px}
.head{display:flex;justify-content:space-between;gap:24px;align-items:flex-start;margin-bottom:16px}
.head h1{text-align:right}.number{font-family:ui-monospace,monospace;font-size:18px;font-weight:700;text-align:right}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.meta{display:grid;grid-template-columns:repeat(2,1fr);gap:4px 24px}
table{width:100%;border-collapse:collapse;margin-top:8px}th,td{border:1px solid #d6d3d1;padding:6px 8px;text-align:left;vertical-align:middle}
th{background:#f5f5f4;font-size:12px;text-transform:uppercase}.num{text-align:right}
img{object-fit:cover;border-radius:4px}.box span{display:inline-block;width:18px;height:18px;border:2px solid #44403c}
ul{list-style:none;padding:0}li{margin:6px 0}li:before{content:"";display:inline-block;width:14px;height:14px;border:2px solid #44403c;margin-right:8px;vertical-align:-3px}
.total{font-size:18px;font-weight:700;text-align:right;margin-top:16px}
.gift{float:right;clear:both;border:2px solid #1c1917;border-radius:4px;padding:2px 8px;margin:0 0 6px;font-weight:700;text-transform:uppercase;letter-spacing:.05em}
.number{clear:both}.sign{margin-top:48px;display:flex;gap:48px}
.sign div{flex:1;border-top:1px solid #1c1917;padding-top:4px;font-size:12px}
</style></head><body>
${orders.map((o) => slipHtml(o, options)).join('\n')}
</body></html>`;
}

/**
 * Opens one print window for the given orders' slips (one page each) and prints it when its images
 * have loaded. Bulk printing passes several orders: one print job.
 */
export function printPackingSlips(orders: OrderView[], options: PackingSlipOptions = {}): void {
  const w = window.open('', '_blank', 'width=900,height=1000');
  if (!w) {
    toast({ title: 'Could not open the print window', description: 'Allow pop-ups for this site and try again.', variant: 'destructive' });
    return;
  }
  w.document.open();
  w.document.write(printDocument(orders, options));
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
  { header: 'Name', primary: true, className: 'max-md:font-semibold', cell: (it) => lineHeading(it).title },
  // The product's own options ("Scent: Lavender · Size: 32 oz"), empty without options (decision 0044).
  { header: 'Options', cell: (it) => lineHeading(it).options },
  { header: 'SKU', cell: (it) => <span className="font-mono">{it.sku ?? 'N/A'}</span> },
  { header: 'Qty', numeric: true, cell: (it) => it.quantity },
  {
    header: 'Packed',
    cell: () => <span aria-label="Not packed yet" role="img" className="inline-block h-5 w-5 border-2 border-stone-700 align-middle" />,
  },
];

/**
 * One order's packing slip on screen, with Print. `hideTotal` starts the gift option (the total
 * left off screen and paper); `printable` false leaves out the Print button and the option, for a
 * page that shows several slips and prints them together (printPackingSlips).
 */
export function PackingSlip({
  orderId,
  nav,
  hideTotal: hideTotalAtFirst = false,
  printable = true,
}: {
  orderId: string;
  nav: OrdersNav;
  hideTotal?: boolean;
  printable?: boolean;
}) {
  const { data, error, isPending, refetch } = useAdminOrder(orderId);
  const settings = useAdminSettings();
  const [hideTotal, setHideTotal] = useState(hideTotalAtFirst);
  const order = data?.order;
  const returnAddress = settings.data?.shop_return_address ?? '';
  const from = returnLines(returnAddress);
  const options: PackingSlipOptions = { shopName: SITE_NAME, returnAddress, hideTotal };
  usePrintOnlySlips();
  return (
    <div className="slips-to-print">
      <Panel
        title="Packing Slip"
        actions={
          <>
            <Button variant="ghost" className="print:hidden" onClick={nav.list}>
              <ArrowLeftIcon size={16} /> Back to orders
            </Button>
            {order && printable && (
              <Button className="print:hidden" onClick={() => printPackingSlips([order], options)}>
                Print
              </Button>
            )}
          </>
        }
      >
        <ListState isPending={isPending} error={error} onRetry={() => void refetch()} loadingLabel="Loading order">
          {order && (
            <div className="flex flex-col gap-6 text-sm">
              {/* A control, not part of the slip: never on paper (a gift slip prints its mark below instead). */}
              {printable && (
                <label className="flex items-center gap-2 self-start rounded-md border border-stone-200 bg-stone-50 px-3 py-2 print:hidden">
                  <input
                    type="checkbox"
                    checked={hideTotal}
                    onChange={(e) => setHideTotal(e.target.checked)}
                    className="h-4 w-4 accent-brand-600"
                  />
                  Gift: leave the order total off this slip
                </label>
              )}
              <div className="flex flex-wrap items-start justify-between gap-4">
                <address className="not-italic" aria-label="Return address">
                  <span className="block font-semibold text-stone-900">{SITE_NAME}</span>
                  {from.map((l, i) => (
                    <span key={i} className="block">
                      {l}
                    </span>
                  ))}
                  {settings.isSuccess && from.length === 0 && (
                    <span className="block text-xs text-amber-800">
                      No return address yet: add it in Settings → General to print it here.
                    </span>
                  )}
                </address>
                <p className="text-right">
                  {hideTotal && (
                    <span
                      className="mb-1 ml-auto block w-fit rounded border-2 border-stone-900 px-2 py-0.5 text-sm font-bold uppercase tracking-wide text-stone-900"
                      data-testid="slip-gift-mark"
                    >
                      {GIFT_MARK}
                    </span>
                  )}
                  <span className="block text-xs uppercase tracking-wide text-stone-600">Order</span>
                  <span className="font-mono text-lg font-bold text-stone-900" data-testid="slip-order-number">
                    {slipOrderNumber(order)}
                  </span>
                </p>
              </div>
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
                  <dd className="inline" data-testid="slip-status">
                    {slipStatusWords(order)}
                  </dd>
                </div>
                <div>
                  <dt className="inline font-medium text-stone-600">Payment: </dt>
                  <dd className="inline">{slipPaymentWords(order)}</dd>
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
              {!hideTotal && (
                <p className="text-right text-lg font-bold" data-testid="slip-total">
                  Order total: {formatCents(order.totalCents)}
                </p>
              )}
              <div className="mt-6 flex gap-8">
                <p className="flex-1 border-t border-stone-900 pt-1 text-xs">Packed by (signature)</p>
                <p className="flex-1 border-t border-stone-900 pt-1 text-xs">Date</p>
              </div>
            </div>
          )}
        </ListState>
      </Panel>
    </div>
  );
}
