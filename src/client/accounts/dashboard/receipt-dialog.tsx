import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { formatCents } from '../../../shared/money.js';
import { orderNumberOf, type OrderView } from '../../../shared/schemas/orders.js';
import { formatAddress } from '../../../shared/address.js';
import { formatDate, shippingText } from '../../lib/format.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { OrderSteps } from '../../ui/order-steps.js';
import { Button } from '../../ui/button.js';
import { CloseIcon } from '../../ui/icons.js';

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
    <div className="flex flex-col gap-5 text-stone-800">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm text-stone-600">Order Number</p>
          <p className="font-mono text-lg font-semibold text-stone-900">#{orderNumberOf(order.id).toUpperCase()}</p>
        </div>
        <div className="text-right">
          <p className="text-sm text-stone-600">Order Date</p>
          <p className="font-medium text-stone-900">{formatDate(order.createdAt, 'long')}</p>
        </div>
        <div className="w-full sm:w-auto">
          <StatusBadge status={order.status} />
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
                  <span className="font-medium text-stone-900">{item.name}</span>
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
          <address className="text-sm not-italic">
            {address.map((line, i) => (
              <span key={i} className="block">
                {line}
              </span>
            ))}
          </address>
        </section>
      )}
    </div>
  );
}

type ReceiptDialogProps = { order: OrderView | null; onClose: () => void };

/**
 * The receipt for one order in a modal <dialog> (native: focus trap, Escape, inert page).
 * Rendered into <body> so the print stylesheet can hide the rest of the page around it.
 */
export function ReceiptDialog({ order, onClose }: ReceiptDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const open = order !== null;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const handleClose = () => {
      returnFocusTo.current?.focus();
      onClose();
    };
    dialog.addEventListener('close', handleClose);
    return () => dialog.removeEventListener('close', handleClose);
  }, [onClose]);

  if (typeof document === 'undefined') return null;
  return createPortal(
    // A click on the backdrop closes the dialog; the keyboard has Escape (native to <dialog>) and the Close button.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={`${PRINT_ONLY_THIS} m-auto max-h-[85vh] w-[calc(100%-2rem)] max-w-2xl rounded-xl bg-white p-0 text-stone-900 shadow-xl backdrop:bg-black/50 print:absolute print:inset-0 print:m-0 print:max-h-none print:w-full print:max-w-none print:rounded-none print:shadow-none print:backdrop:bg-transparent`}
      onClick={(e) => {
        if (e.target === e.currentTarget) ref.current?.close();
      }}
    >
      {order && (
        <div className="flex max-h-[85vh] flex-col print:max-h-none">
          <div className="flex items-center justify-between gap-4 border-b border-stone-200 px-6 py-4">
            <h2 id={titleId} className="text-xl font-semibold">
              <span className="print:hidden">Order Details</span>
              <span className="hidden print:inline">EcoClean · Packing Slip</span>
            </h2>
            <button
              type="button"
              onClick={() => ref.current?.close()}
              aria-label="Close"
              className="rounded-md p-2 text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 print:hidden"
            >
              <CloseIcon size={20} />
            </button>
          </div>
          {/* Focusable so keyboard users can scroll a long receipt (it may hold no link). */}
          <div
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
            tabIndex={0}
            data-testid="receipt"
            className="overflow-y-auto px-6 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 print:overflow-visible"
          >
            <Receipt order={order} />
          </div>
          <div className="flex flex-col-reverse gap-2 border-t border-stone-200 px-6 py-4 sm:flex-row sm:justify-end print:hidden">
            <Button variant="ghost" onClick={() => ref.current?.close()}>
              Close
            </Button>
            <Button onClick={() => window.print()}>Print Packing Slip</Button>
          </div>
        </div>
      )}
    </dialog>,
    document.body,
  );
}
