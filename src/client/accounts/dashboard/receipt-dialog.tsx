import { createPortal } from 'react-dom';
import { formatCents } from '../../../shared/money.js';
import type { OrderView } from '../../../shared/schemas/orders.js';
import { isToShipOrder, orderNumberLabel } from '../../../shared/order-words.js';
import { lineHeading } from '../../../shared/line-options.js';
import { formatAddress } from '../../../shared/address.js';
import { formatDate, shippingText } from '../../lib/format.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { OrderSteps } from '../../ui/order-steps.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { AddressLines } from '../../ui/address-lines.js';

/**
 * While a receipt is open, printing shows only the receipt: this print-only utility on the dialog
 * hides every other child of <body> (the app root, the toaster), and the dialog drops its screen chrome.
 */
const PRINT_ONLY_THIS = 'print:[body:has(&)>*:not(&)]:hidden';

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? 'border-t border-stone-300 pt-2 text-lg font-bold text-stone-900' : ''}`}>
      <dt>{label}</dt>
      <dd className="text-stone-900">{value}</dd>
    </div>
  );
}

/** The order as a receipt (packing slip when printed). */
function Receipt({ order }: { order: OrderView }) {
  const address = formatAddress(order.shippingAddress);
  return (
    <div className="flex flex-col gap-5 text-stone-800" data-testid="receipt">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm text-stone-600">Order Number</p>
          <p className="font-mono text-lg font-semibold text-stone-900">{orderNumberLabel(order.id)}</p>
        </div>
        <div className="text-right">
          <p className="text-sm text-stone-600">Order Date</p>
          <p className="font-medium text-stone-900">{formatDate(order.createdAt, 'long')}</p>
        </div>
        <div className="w-full sm:w-auto">
          <StatusBadge status={order.status} preparing={isToShipOrder(order)} />
        </div>
      </div>

      <section aria-label="Items">
        <h3 className="mb-2 font-semibold text-stone-900">Items</h3>
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b border-stone-300 text-left text-stone-600">
              <th scope="col" className="py-1.5 pr-2 font-medium">
                Product
              </th>
              <th scope="col" className="py-1.5 px-2 text-right font-medium">
                Qty
              </th>
              <th scope="col" className="py-1.5 px-2 text-right font-medium">
                Price
              </th>
              <th scope="col" className="py-1.5 pl-2 text-right font-medium">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.id} className="border-b border-stone-200 align-top">
                <td className="py-2 pr-2">
                  <span className="font-medium text-stone-900">{lineHeading(item).title}</span>
                  {lineHeading(item).options && <span className="block text-xs text-stone-600">{lineHeading(item).options}</span>}
                  {item.sku && <span className="block text-xs text-stone-600">SKU: {item.sku}</span>}
                </td>
                <td className="py-2 px-2 text-right">{item.quantity}</td>
                <td className="py-2 px-2 text-right">{item.isFreeGift ? 'FREE' : formatCents(item.priceCents)}</td>
                <td className="py-2 pl-2 text-right font-medium text-stone-900">
                  {item.isFreeGift ? 'FREE' : formatCents(item.lineTotalCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <dl className="flex flex-col gap-1.5 text-sm sm:ml-auto sm:w-72">
        <Row label="Subtotal" value={formatCents(order.subtotalCents)} />
        {order.discountCents > 0 && (
          <Row label={`Discount${order.couponCode ? ` (${order.couponCode})` : ''}`} value={`-${formatCents(order.discountCents)}`} />
        )}
        <Row label="Shipping" value={shippingText(order.shippingCents)} />
        <Row label="Tax" value={formatCents(order.taxCents)} />
        <Row label="Total" value={formatCents(order.totalCents)} strong />
      </dl>

      <OrderSteps steps={order.timeline} />

      {address.length > 0 && (
        <section aria-label="Shipping Address">
          <h3 className="mb-1 font-semibold text-stone-900">Shipping Address</h3>
          <AddressLines lines={address} className="text-sm" />
        </section>
      )}
    </div>
  );
}

type ReceiptDialogProps = { order: OrderView | null; onClose: () => void };

/**
 * The receipt for one order in the shared modal dialog, rendered into <body> so the print
 * stylesheet can hide the rest of the page around it.
 */
export function ReceiptDialog({ order, onClose }: ReceiptDialogProps) {
  if (typeof document === 'undefined') return null;
  return createPortal(
    <Dialog
      open={order !== null}
      onClose={onClose}
      className={`${PRINT_ONLY_THIS} print:absolute print:inset-0 print:m-0 print:max-h-none print:w-full print:max-w-none print:rounded-none print:shadow-none print:backdrop:bg-transparent`}
      title={
        <>
          <span className="print:hidden">Order Details</span>
          <span className="hidden print:inline">EcoClean · Packing Slip</span>
        </>
      }
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => window.print()}>Print Packing Slip</Button>
        </>
      }
    >
      {order && <Receipt order={order} />}
    </Dialog>,
    document.body,
  );
}
