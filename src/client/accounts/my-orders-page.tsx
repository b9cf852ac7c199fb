import { useState } from 'react';
import { ORDERS_PAGE_SIZE, useOrders } from './dashboard/api.js';
import { OrdersList, OrdersListSkeleton } from './dashboard/orders-list.js';
import { useSession } from '../lib/get-session.js';
import { RequireAuth } from '../lib/require-auth.js';
import { AccountListPage, AccountListPager } from '../ui/account-list-page.js';

function MyOrders() {
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const orders = useOrders(page, ORDERS_PAGE_SIZE);
  if (!user) return null;

  return (
    <AccountListPage
      title="My Orders"
      user={user}
      query={orders}
      errorTitle="We couldn't load your orders."
      skeleton={<OrdersListSkeleton />}
    >
      {(data) => (
        <>
          <OrdersList orders={data.items} />
          <AccountListPager
            label="Orders pages"
            page={page}
            setPage={setPage}
            shownPage={data.page}
            totalPages={data.totalPages}
            busy={orders.isPlaceholderData}
          />
        </>
      )}
    </AccountListPage>
  );
}

export default function MyOrdersPage() {
  return (
    <RequireAuth>
      <MyOrders />
    </RequireAuth>
  );
}
