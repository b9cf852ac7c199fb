import { useState } from 'react';
import { ORDERS_PAGE_SIZE, useOrders } from './dashboard/api.js';
import { OrdersList, OrdersListSkeleton } from './dashboard/orders-list.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { useSession } from '../lib/get-session.js';
import { SignedInLine } from '../ui/signed-in-line.js';
import { RequireAuth } from '../lib/require-auth.js';

function MyOrders() {
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const orders = useOrders(page, ORDERS_PAGE_SIZE);
  if (!user) return null;
  const data = orders.data;
  const totalPages = data?.totalPages ?? 1;

  return (
    <Container className="py-8 sm:py-10">
      <div className="mb-6 flex flex-col gap-1">
        <h1 className="text-3xl font-bold text-stone-900">My Orders</h1>
        <SignedInLine user={user} />
      </div>

      {orders.isError && !data ? (
        <Alert variant="destructive" title="We couldn't load your orders.">
          <Button variant="outline" size="sm" className="mt-2" onClick={() => void orders.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : !data ? (
        <OrdersListSkeleton />
      ) : (
        <>
          <OrdersList orders={data.items} />
          {totalPages > 1 && (
            <nav aria-label="Orders pages" className="mt-6 flex items-center justify-between gap-4">
              <Button
                variant="outline"
                size="sm"
                disabled={page <= 1 || orders.isPlaceholderData}
                onClick={() => setPage((p) => Math.max(1, p - 1))}
              >
                Previous
              </Button>
              <p className="text-sm text-stone-700" aria-live="polite">
                Page {data.page} of {totalPages}
              </p>
              <Button
                variant="outline"
                size="sm"
                disabled={page >= totalPages || orders.isPlaceholderData}
                onClick={() => setPage((p) => Math.min(totalPages, p + 1))}
              >
                Next
              </Button>
            </nav>
          )}
        </>
      )}
    </Container>
  );
}

export default function MyOrdersPage() {
  return (
    <RequireAuth>
      <MyOrders />
    </RequireAuth>
  );
}
