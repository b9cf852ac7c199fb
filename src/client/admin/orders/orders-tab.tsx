import { useSearchParams } from 'react-router';
import { useSelection } from '../components/bulk.js';
import { OrderDetails } from './order-details.js';
import { OrderForm } from './order-form.js';
import { OrderList } from './order-list.js';
import { OrdersOverviewSection } from './orders-overview.js';
import { PackingSlip } from './packing-slip.js';
import { StrayPaymentsAlert } from './stray-payments.js';
import { PackingSlipsPrint, slipOrderIds } from './packing-slips-print.js';

export type OrderView = 'list' | 'details' | 'packing' | 'create' | 'edit' | 'slips';

export type OrdersNav = {
  list: () => void;
  details: (id: string) => void;
  packing: (id: string) => void;
  edit: (id: string) => void;
  create: () => void;
  /** Several orders' packing slips in one print view (`?view=slips&orders=a,b`). */
  slips: (ids: string[]) => void;
};

/** Five views; the URL says which (`?tab=orders&view=details&order=ID`), so reload and Back work. */
export default function OrdersTab() {
  const [params, setParams] = useSearchParams();
  const view = params.get('view');
  const orderId = params.get('order');
  // Kept here, so a look at an order or the slips' print view and back keeps the owner's selection.
  const selection = useSelection();

  const go = (v: OrderView, id?: string, ids?: string[]) => {
    const next = new URLSearchParams(params);
    next.set('tab', 'orders');
    next.delete('view');
    next.delete('order');
    next.delete('orders');
    if (v !== 'list') next.set('view', v);
    if (id) next.set('order', id);
    if (ids) next.set('orders', ids.join(','));
    setParams(next);
    window.scrollTo({ top: 0 });
  };
  const nav: OrdersNav = {
    list: () => go('list'),
    details: (id) => go('details', id),
    packing: (id) => go('packing', id),
    edit: (id) => go('edit', id),
    create: () => go('create'),
    slips: (ids) => go('slips', undefined, ids),
  };

  if (view === 'create') return <OrderForm key="create" orderId={null} nav={nav} />;
  if (orderId && view === 'edit') return <OrderForm key={`edit-${orderId}`} orderId={orderId} nav={nav} />;
  if (orderId && view === 'packing') return <PackingSlip orderId={orderId} nav={nav} />;
  if (orderId && view === 'details') return <OrderDetails orderId={orderId} nav={nav} />;
  if (view === 'slips') return <PackingSlipsPrint orderIds={slipOrderIds(params.get('orders'))} nav={nav} />;
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <StrayPaymentsAlert onOpenOrder={nav.details} />
      {/* On a phone the list comes first (the day's work), the charts after it. */}
      <div className="min-w-0 max-md:order-last">
        <OrdersOverviewSection />
      </div>
      <OrderList nav={nav} selection={selection} />
    </div>
  );
}
