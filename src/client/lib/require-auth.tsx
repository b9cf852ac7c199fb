import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from './paths.js';
import { Button } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { AlertIcon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';
import { useSession } from './get-session.js';
import { signInPathFor } from './safe-redirect.js';

type Verdict = 'wait' | 'error' | 'sign-in' | 'denied' | 'ok';

function LoadingPlaceholder() {
  return (
    <p role="status" className="flex min-h-[50vh] items-center justify-center gap-3 text-stone-700">
      <span
        aria-hidden="true"
        className="h-6 w-6 animate-spin rounded-full border-2 border-brand-600 border-t-transparent motion-reduce:animate-none"
      />
      Loading...
    </p>
  );
}

/**
 * Shows its children only to a signed-in user (an admin when `adminOnly`). Anyone else is sent
 * to /auth, keeping the page they asked for, or to / when they lack the admin role.
 */
export function RequireAuth({ children, adminOnly = false }: { children: ReactNode; adminOnly?: boolean }) {
  const { user, isLoading, isError, isFetching, refetch } = useSession();
  const location = useLocation();
  const navigate = useNavigate();

  let verdict: Verdict = 'ok';
  if (isLoading) verdict = 'wait';
  else if (isError) verdict = 'error';
  else if (!user) verdict = 'sign-in';
  else if (adminOnly && user.role !== 'admin') verdict = 'denied';

  useEffect(() => {
    if (verdict !== 'sign-in' && verdict !== 'denied') return;
    // A navigation is already under way (signing out leaves this page first): let it finish.
    if (window.location.pathname !== location.pathname) return;
    if (verdict === 'sign-in') {
      toast({ title: 'Authentication required', description: 'Please sign in to access this page' });
      void navigate(signInPathFor(`${location.pathname}${location.search}`), { replace: true });
    } else {
      toast({ title: 'Access denied', description: 'You need admin privileges to access this page', variant: 'destructive' });
      void navigate(paths.home, { replace: true });
    }
  }, [verdict, location.pathname, location.search, navigate]);

  if (verdict === 'ok') return children;
  if (verdict === 'error') {
    return (
      <Container className="flex justify-center py-16">
        <div
          role="alert"
          className="flex w-full max-w-md flex-col items-center gap-4 rounded-xl border border-red-200 bg-red-50 p-8 text-center"
        >
          <AlertIcon size={28} className="text-red-700" />
          <h1 className="text-xl font-semibold text-red-900">Authentication Error</h1>
          <Button onClick={() => void refetch()} disabled={isFetching}>
            Retry
          </Button>
        </div>
      </Container>
    );
  }
  return <LoadingPlaceholder />;
}
