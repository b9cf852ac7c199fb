import { lazy, Suspense, useEffect, useRef } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { RequireAuth } from '../lib/require-auth.js';
import { useSession } from '../lib/get-session.js';
import { SignedInLine } from '../ui/signed-in-line.js';
import { Container } from '../ui/container.js';
import { AlertIcon } from '../ui/icons.js';
import { Spinner } from '../ui/spinner.js';
import { Tabs } from '../ui/tabs.js';
import { TestPaymentsBanner } from './components/test-payments-banner.js';

const TABS = [
  { id: 'orders', label: 'Orders', Panel: lazy(() => import('./orders/orders-tab.js')) },
  { id: 'subscriptions', label: 'Subscriptions', Panel: lazy(() => import('./subscriptions/subscriptions-tab.js')) },
  { id: 'reviews', label: 'Reviews', Panel: lazy(() => import('./reviews/reviews-tab.js')) },
  { id: 'marketing', label: 'Marketing', Panel: lazy(() => import('./marketing/marketing-tab.js')) },
  { id: 'shipstation', label: 'ShipStation', Panel: lazy(() => import('./shipstation/shipstation-tab.js')) },
  { id: 'shipping', label: 'Shipping', Panel: lazy(() => import('./shipping/shipping-tab.js')) },
  { id: 'coupons', label: 'Coupons', Panel: lazy(() => import('./coupons/coupons-tab.js')) },
  { id: 'users', label: 'Users', Panel: lazy(() => import('./users/users-tab.js')) },
  { id: 'products', label: 'Products', Panel: lazy(() => import('./products/products-and-holds-tab.js')) },
  { id: 'categories', label: 'Categories', Panel: lazy(() => import('./categories/categories-tab.js')) },
  { id: 'settings', label: 'Settings', Panel: lazy(() => import('./settings/settings-tab.js')) },
  { id: 'faqs', label: 'FAQs', Panel: lazy(() => import('./faqs/faqs-tab.js')) },
  { id: 'about', label: 'About', Panel: lazy(() => import('./about/about-tab.js')) },
  { id: 'homepage', label: 'Homepage', Panel: lazy(() => import('./homepage/homepage-tab.js')) },
  { id: 'email', label: 'Email', Panel: lazy(() => import('./email/email-tab.js')) },
] as const;

type TabId = (typeof TABS)[number]['id'];

function isTab(value: string | null | undefined): value is TabId {
  return TABS.some((t) => t.id === value);
}

/** The active tab: `?tab=coupons` wins, then `/admin/coupons`, else orders. */
function useActiveTab(): [TabId, (tab: TabId) => void] {
  const [params] = useSearchParams();
  const splat = useParams()['*']?.split('/')[0];
  const navigate = useNavigate();
  const fromQuery = params.get('tab');
  const active: TabId = isTab(fromQuery) ? fromQuery : isTab(splat) ? splat : 'orders';
  const select = (tab: TabId) => void navigate(`/admin?tab=${tab}`);
  return [active, select];
}

function AdminTabs() {
  const [active, select] = useActiveTab();
  const strip = useRef<HTMLDivElement | null>(null);
  const current = TABS.find((t) => t.id === active) ?? TABS[0];

  // On a narrow screen the strip scrolls sideways: bring the selected tab into its middle, on load
  // and on every change, without moving the page itself (scrollIntoView would).
  useEffect(() => {
    const box = strip.current;
    const tab = box?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    if (!box || !tab || box.scrollWidth <= box.clientWidth) return;
    const left = tab.offsetLeft - (box.clientWidth - tab.offsetWidth) / 2;
    box.scrollTo({ left: Math.max(0, left), behavior: 'instant' });
  }, [active]);

  return (
    <div className="flex flex-col gap-6">
      <Tabs
        label="Admin sections"
        tabs={TABS}
        selected={active}
        onSelect={select}
        idPrefix="admin"
        listRef={strip}
        listClassName="relative -mx-4 flex gap-1 overflow-x-auto border-b border-stone-200 px-4 sm:mx-0 sm:px-0"
        tabClassName={(selected) =>
          `-mb-px shrink-0 whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${
            selected ? 'border-brand-600 text-brand-800' : 'border-transparent text-stone-700 hover:border-stone-300 hover:text-stone-900'
          }`
        }
        panelClassName="min-w-0"
      >
        <Suspense fallback={<Spinner label="Loading" />}>
          <current.Panel />
        </Suspense>
      </Tabs>
    </div>
  );
}

/** The back office. Its own check stands even if a route were ever left unguarded. */
function AdminDashboard() {
  const { user, isLoading } = useSession();
  if (isLoading) return <Spinner label="Loading" className="min-h-[50vh]" />;
  if (user?.role !== 'admin') {
    return (
      <Container className="flex justify-center py-16">
        <div
          role="alert"
          className="flex w-full max-w-md flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-8 text-center"
        >
          <AlertIcon size={28} className="text-red-700" />
          <h1 className="text-2xl font-bold text-red-900">Access Denied</h1>
          <p className="text-red-900">You need admin privileges to access this page.</p>
          <p className="text-sm text-red-800">Current role: {user?.role ?? 'none'}</p>
        </div>
      </Container>
    );
  }
  return (
    <Container className="flex flex-col gap-6 py-10">
      <div>
        <h1 className="text-3xl font-bold text-stone-900">Admin Dashboard</h1>
        <SignedInLine user={user} />
      </div>
      <TestPaymentsBanner />
      <AdminTabs />
    </Container>
  );
}

/**
 * A guest is sent to sign in (and back); a signed-in user without the admin role stays here and
 * sees the specification's Access Denied panel with their role instead of being redirected.
 */
export default function AdminPage() {
  return (
    <RequireAuth>
      <AdminDashboard />
    </RequireAuth>
  );
}
