import type { Dispatch, ReactNode, SetStateAction } from 'react';
import type { SessionUser } from '../../shared/schemas/auth.js';
import { Alert } from './alert.js';
import { Button } from './button.js';
import { Container } from './container.js';
import { SignedInLine } from './signed-in-line.js';

/**
 * A signed-in customer's list page (My Orders, My Reviews): its heading and who is signed in, then
 * the list's error with Retry (only while no page is on screen: a failed refetch keeps the page
 * shown), its `skeleton` until the first page comes, and then `children` with the page. `after`
 * follows the list (a dialog the rows open).
 */
export function AccountListPage<D>({
  title,
  user,
  query,
  errorTitle,
  skeleton,
  after,
  children,
}: {
  title: string;
  user: SessionUser;
  query: { data: D | undefined; isError: boolean; refetch: () => unknown };
  /** "We couldn't load your orders." */
  errorTitle: string;
  skeleton: ReactNode;
  after?: ReactNode;
  children: (data: D) => ReactNode;
}) {
  const { data } = query;
  return (
    <Container className="py-8 sm:py-10">
      <div className="mb-6 flex flex-col gap-1">
        <h1 className="text-3xl font-bold text-stone-900">{title}</h1>
        <SignedInLine user={user} />
      </div>
      {query.isError && !data ? (
        <Alert variant="destructive" title={errorTitle}>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : data === undefined ? (
        skeleton
      ) : (
        children(data)
      )}
      {after}
    </Container>
  );
}

/**
 * Previous / Next under an account list, kept in the page's state (`page`; `shownPage` is the page
 * on screen, the server's answer). Both wait while the next page loads (`busy`). Nothing for one page.
 */
export function AccountListPager({
  label,
  page,
  setPage,
  shownPage,
  totalPages,
  busy,
}: {
  /** The nav's name, "Orders pages". */
  label: string;
  page: number;
  setPage: Dispatch<SetStateAction<number>>;
  shownPage: number;
  totalPages: number;
  busy: boolean;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={label} className="mt-6 flex items-center justify-between gap-4">
      <Button variant="outline" size="sm" disabled={page <= 1 || busy} onClick={() => setPage((p) => Math.max(1, p - 1))}>
        Previous
      </Button>
      <p className="text-sm text-stone-700" aria-live="polite">
        Page {shownPage} of {totalPages}
      </p>
      <Button variant="outline" size="sm" disabled={page >= totalPages || busy} onClick={() => setPage((p) => Math.min(totalPages, p + 1))}>
        Next
      </Button>
    </nav>
  );
}
