import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { SessionUser } from '../../shared/schemas/auth.js';
import type { AccountSummary } from '../../shared/schemas/account.js';
import { BEING_PREPARED_LABEL } from '../../shared/order-words.js';
import { AccountInfoCard } from './dashboard/account-info.js';
import { AccountSelfServiceCard } from './dashboard/account-self-service.js';
import { EmailPreferencesCard } from './dashboard/email-preferences.js';
import { AdminStatsPanel, RecentUsersPanel } from './dashboard/admin-panels.js';
import { RECENT_ORDERS, useAccountSummary, useAdminStats, useOrders } from './dashboard/api.js';
import { LoyaltyCard, ShoppingSummaryCard } from './dashboard/loyalty.js';
import { Panel, StatCard } from './dashboard/panel.js';
import { RecentOrdersPanel } from './dashboard/recent-orders.js';
import { SubscriptionsPanel } from './subscriptions/subscriptions-panel.js';
import { formatDate } from '../lib/format.js';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { Skeleton } from '../ui/skeleton.js';
import { useSession } from '../lib/get-session.js';
import { SignedInLine } from '../ui/signed-in-line.js';
import { RequireAuth } from '../lib/require-auth.js';
import { dashboardGreeting } from './greeting.js';
import { VerifyEmailNotice } from './dashboard/verify-email-notice.js';

type Stats = {
  totalOrders: number;
  latestOrderAt: string | null;
  pendingOrders: number;
  third: { label: string; value: number };
  /** The customer's orders, each in one bucket (they add up to totalOrders). */
  counts?: AccountSummary['stats']['orderCounts'];
};

/** Each bucket's words; "Paid, being prepared" is the owner's "To ship" (shared isToShipOrder). */
const COUNT_LABELS: [keyof AccountSummary['stats']['orderCounts'], string][] = [
  ['pending', 'Pending'],
  ['preparing', BEING_PREPARED_LABEL],
  ['shipped', 'Shipped'],
  ['delivered', 'Delivered'],
  ['cancelled', 'Cancelled'],
  ['other', 'Other'],
];

/** "Your 4 orders: 1 Pending · 2 Paid, being prepared · 1 Delivered": every order once, so they add up. */
function OrderCounts({ total, counts }: { total: number; counts: AccountSummary['stats']['orderCounts'] }) {
  const shown = COUNT_LABELS.filter(([k]) => counts[k] > 0);
  if (total === 0 || shown.length === 0) return null;
  return (
    <div className="rounded-xl border border-stone-200 bg-white px-5 py-3 text-sm text-stone-700" data-testid="order-counts">
      <span className="font-medium text-stone-900">
        Your {total} {total === 1 ? 'order' : 'orders'}:
      </span>{' '}
      <ul className="inline">
        {shown.map(([k, label], i) => (
          <li key={k} className="inline" data-testid={`order-count-${k}`}>
            {i > 0 && <span aria-hidden="true"> · </span>}
            <span className="font-semibold text-stone-900">{counts[k]}</span> {label}
          </li>
        ))}
      </ul>
    </div>
  );
}

function StatCards({ stats }: { stats: Stats | undefined }) {
  if (!stats) {
    return (
      <div className="grid gap-4 sm:grid-cols-3" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <div key={i} className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white p-5">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-8 w-16" />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="grid gap-4 sm:grid-cols-3" data-testid="stat-cards">
      <StatCard
        label="Total Orders"
        value={stats.totalOrders}
        hint={stats.latestOrderAt ? `Latest: ${formatDate(stats.latestOrderAt)}` : 'No orders yet'}
      />
      <StatCard label="Pending Orders" value={stats.pendingOrders} />
      <StatCard label={stats.third.label} value={stats.third.value} />
      {stats.counts && (
        <div className="sm:col-span-3">
          <OrderCounts total={stats.totalOrders} counts={stats.counts} />
        </div>
      )}
    </div>
  );
}

/** The stat cards, then a customer's subscriptions, the orders and the account's panels beside the role's own side column. */
function DashboardLayout({
  user,
  stats,
  side,
  subscriptions,
}: {
  user: SessionUser;
  stats: Stats | undefined;
  side: ReactNode;
  /** Ongoing commitments come first: what renews, and its Cancel button, before the orders it made. */
  subscriptions?: ReactNode;
}) {
  const orders = useOrders(1, RECENT_ORDERS);
  return (
    <>
      <StatCards stats={stats} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
          {subscriptions ? <div id="subscriptions">{subscriptions}</div> : null}
          <RecentOrdersPanel data={orders.data} isError={orders.isError} />
          <AccountInfoCard user={user} />
          <AccountSelfServiceCard user={user} />
        </div>
        <div className="flex min-w-0 flex-col gap-6">{side}</div>
      </div>
    </>
  );
}

/** The account's reviews (issue [6/8]) have a page of their own: each review's status, and Edit. */
function MyReviewsCard() {
  return (
    <Panel title="My Reviews">
      <p className="mb-4 text-sm text-stone-700">The reviews you have written, whether each is published yet, and a way to change them.</p>
      <Link to={paths.myReviews} className={buttonClasses('outline', 'sm')}>
        View My Reviews
      </Link>
    </Panel>
  );
}

function CustomerDashboard({ user }: { user: SessionUser }) {
  const summary = useAccountSummary(true);
  const s = summary.data?.stats;
  return (
    <DashboardLayout
      user={user}
      stats={
        s && {
          totalOrders: s.totalOrders,
          latestOrderAt: s.latestOrderAt,
          pendingOrders: s.pendingOrders,
          third: { label: 'Delivered Orders', value: s.deliveredOrders },
          counts: s.orderCounts,
        }
      }
      subscriptions={<SubscriptionsPanel />}
      side={
        summary.data ? (
          <>
            <LoyaltyCard loyalty={summary.data.loyalty} />
            <ShoppingSummaryCard stats={summary.data.stats} />
            <MyReviewsCard />
            <EmailPreferencesCard />
          </>
        ) : (
          <div className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-6" aria-hidden="true">
            <Skeleton className="h-6 w-40" />
            <Skeleton className="h-16" />
            <Skeleton className="h-3" />
            <Skeleton className="h-24" />
          </div>
        )
      }
    />
  );
}

function AdminDashboard({ user }: { user: SessionUser }) {
  const admin = useAdminStats(true);
  const s = admin.data?.stats;
  return (
    <DashboardLayout
      user={user}
      stats={
        s && {
          totalOrders: s.totalOrders,
          latestOrderAt: s.latestOrderAt,
          pendingOrders: s.pendingOrders,
          third: { label: 'Total Users', value: s.totalUsers },
        }
      }
      side={
        <>
          <AdminStatsPanel stats={s} />
          <RecentUsersPanel users={admin.data?.recentUsers} />
        </>
      }
    />
  );
}

function Dashboard() {
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  if (!user) return null;
  return (
    <Container className="flex flex-col gap-6 py-8 sm:py-10">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-col gap-1">
          <h1 className="text-3xl font-bold text-stone-900">{isAdmin ? 'Admin Dashboard' : 'My Dashboard'}</h1>
          <p className="text-lg text-stone-800">{dashboardGreeting(user)}</p>
          <SignedInLine user={user} />
        </div>
        {isAdmin && (
          <Link to={paths.admin} className={buttonClasses('primary', 'lg')}>
            Admin Panel
          </Link>
        )}
      </div>
      <VerifyEmailNotice user={user} />
      {isAdmin ? <AdminDashboard user={user} /> : <CustomerDashboard user={user} />}
    </Container>
  );
}

export default function DashboardPage() {
  return (
    <RequireAuth>
      <Dashboard />
    </RequireAuth>
  );
}
