import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '../ui/spinner.js';
import { Toaster } from '../ui/toast.js';
import { Header } from './header.js';
import { useSession } from '../lib/get-session.js';
import { ScrollToTop } from './scroll-to-top.js';
import { RecoveryHashRedirect } from '../lib/recovery-hash-redirect.js';
import { HydrateWhenVisible, useFirstPageEnd } from '../lib/hydrate-when-visible.js';
import { useSavedCartSync } from '../cart/use-saved-cart-sync.js';

// Only an admin viewing the shop as a customer ever sees it: its code stays out of the first load.
const ImpersonationBanner = lazy(() => import('./impersonation-banner.js').then((m) => ({ default: m.ImpersonationBanner })));

// The footer lies below every page's first screen: its code is not part of the first load (the
// entry and what it imports), which starts the page; it is fetched as the app starts, beside it, and
// is there long before a person reaches the footer. Until it is hydrated the server's HTML of it stays
// as drawn (HydrateWhenVisible suspends, and a part whose code is still loading suspends the same way).
// Fetched at once rather than when it comes near: a click on a part whose code has not arrived is lost.
const footerModule = import('./footer.js');
const Footer = lazy(() => footerModule.then((m) => ({ default: m.Footer })));

/** The impersonation banner when there is one (the server's HTML has it too: its render waits for the chunk). */
function ImpersonationSlot() {
  const { impersonatorEmail } = useSession();
  if (!impersonatorEmail) return null;
  return (
    <Suspense fallback={null}>
      <ImpersonationBanner />
    </Suspense>
  );
}

export function RootLayout() {
  useFirstPageEnd();
  useSavedCartSync();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-brand-600 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to content
      </a>
      <RecoveryHashRedirect />
      <ScrollToTop />
      <ImpersonationSlot />
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<Spinner className="min-h-[50vh]" />}>
          <Outlet />
        </Suspense>
      </main>
      <HydrateWhenVisible selector="#main ~ footer" part={Footer} />
      <Toaster />
    </div>
  );
}
