import { BULK_MAX } from '../../../shared/schemas/bulk.js';
import { Button } from '../../ui/button.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { PackingSlip, usePrintOnlySlips } from './packing-slip.js';
import type { OrdersNav } from './orders-tab.js';

/** `?view=slips&orders=a,b,c`: the selected orders, at most a bulk action's worth. */
export function slipOrderIds(param: string | null): string[] {
  return [
    ...new Set(
      (param ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ].slice(0, BULK_MAX);
}

/**
 * Every selected order's packing slip, one after another, each on a page of its own, printed
 * together in one print job (the browser's print of this page). Each slip is the single packing
 * slip view, drawn once per order; its own buttons and the back office around it are not printed.
 */
export function PackingSlipsPrint({ orderIds, nav }: { orderIds: string[]; nav: OrdersNav }) {
  usePrintOnlySlips();
  const n = orderIds.length;
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm print:hidden">
        <div>
          <h2 className="text-xl font-semibold text-stone-900">Packing slips</h2>
          <p className="text-sm text-stone-700">
            {n} order{n === 1 ? '' : 's'}, one slip per page.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="ghost" onClick={nav.list}>
            <ArrowLeftIcon size={16} /> Back to orders
          </Button>
          <Button onClick={() => window.print()} disabled={n === 0}>
            Print all ({n})
          </Button>
        </div>
      </div>
      {n === 0 ? (
        <p className="text-stone-700">No orders were selected.</p>
      ) : (
        <div className="slips-to-print flex flex-col gap-6">
          {orderIds.map((id) => (
            <div key={id} className="not-last:break-after-page print:[&_button]:hidden">
              <PackingSlip orderId={id} nav={nav} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
