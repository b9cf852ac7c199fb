import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '../ui/spinner.js';
import { Toaster } from '../ui/toast.js';
import { Footer } from './footer.js';
import { Header } from './header.js';
import { useSession } from '../lib/get-session.js';
import { ScrollToTop } from './scroll-to-top.js';
import { RecoveryHashRedirect } from '../lib/recovery-hash-redirect.js';
import { HydrateWhenVisible, useFirstPageEnd } from '../lib/hydrate-when-visible.js';
import { useSavedCartSync } from '../cart/use-saved-cart-sync.js';

// Only an admin viewing the shop as a customer ever sees it: its code stays out of the first load.
const ImpersonationBanner = lazy(() => import('./impersonation-banner.js').then((m) => ({ default: m.ImpersonationBanner })));

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
