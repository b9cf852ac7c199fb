import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatCents } from '../../../shared/money.js';
import type { OrderView } from '../../../shared/schemas/orders.js';
import { isToShipOrder, orderNumberLabel } from '../../../shared/order-words.js';
import { errorMessage } from '../../lib/error-message.js';
import { formatDate } from '../../lib/format.js';
import { paths } from '../../lib/paths.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';
import { toast } from '../../ui/toast.js';
import type { OrdersPage } from './api.js';
import { Panel } from './panel.js';
import { ReceiptDialog } from './receipt-dialog.js';
import { reorder } from './reorder.js';

/** 'No orders yet' with a way to the shop. */
export function NoOrders() {
  return (
    <div className="flex flex-col items-center gap-4 rounded-lg border border-dashed border-stone-300 px-6 py-10 text-center">
      <p className="text-lg font-medium text-stone-800">No orders yet</p>
      <Link to={paths.products} className={buttonClasses('primary', 'md')}>
        Start Shopping
      </Link>
    </div>
  );
}

/** The order being shown in the receipt dialog, if any. */
export function useReceipt() {
  const [order, setOrder] = useState<OrderView | null>(null);
  const close = useCallback(() => setOrder(null), []);
  return { order, open: setOrder, close };
}

function ReorderButton({ order }: { order: OrderView }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const onClick = async () => {
    setPending(true);
    try {
      await reorder(queryClient, order);
    } catch (err) {
      toast({
        title: 'Error',
        description: errorMessage(err, 'Could not add these items to your cart. Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  };
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={pending}
      onClick={() => void onClick()}
      aria-label={`Reorder order ${orderNumberLabel(order.id)}`}
    >
      {pending ? 'Adding...' : 'Reorder'}
    </Button>
  );
}

function RowSkeleton() {
  return (
    <li className="flex flex-col gap-2 py-4" aria-hidden="true">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-4 w-64" />
    </li>
  );
}

/** Up to 10 newest orders with View Details and Reorder; 'View All Orders' when there are more. */
export function RecentOrdersPanel({ data, isError }: { data: OrdersPage | undefined; isError: boolean }) {
  const receipt = useReceipt();
  const more = data && data.total > data.items.length;
  return (
    <Panel
      title="Recent Orders"
      action={
        more ? (
          <Link to={paths.orders} className={buttonClasses('outline', 'sm')}>
            View All Orders
          </Link>
        ) : undefined
      }
    >
      {isError && !data ? (
        <p role="alert" className="text-sm text-red-800">
          We couldn't load your orders. Please try again later.
        </p>
      ) : !data ? (
        <ul className="divide-y divide-stone-100">
          <RowSkeleton />
          <RowSkeleton />
          <RowSkeleton />
        </ul>
      ) : data.items.length === 0 ? (
        <NoOrders />
      ) : (
        <ul className="divide-y divide-stone-100" data-testid="recent-orders">
          {data.items.map((order) => (
            <li key={order.id} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex flex-col gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-mono font-semibold text-stone-900" data-testid="order-number">
                    {orderNumberLabel(order.id)}
                  </span>
                  <StatusBadge status={order.status} preparing={isToShipOrder(order)} />
                </div>
                <p className="text-sm text-stone-600">
                  {formatDate(order.createdAt)} · <span className="font-semibold text-stone-900">{formatCents(order.totalCents)}</span>
                </p>
              </div>
              <div className="flex gap-2">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => receipt.open(order)}
                  aria-label={`View Details of order ${orderNumberLabel(order.id)}`}
                >
                  View Details
                </Button>
                <ReorderButton order={order} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {receipt.order && <ReceiptDialog order={receipt.order} onClose={receipt.close} />}
    </Panel>
  );
}
