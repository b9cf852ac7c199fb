import { RequireAuth } from '../accounts/require-auth.js';
import { useSession } from '../accounts/api/get-session.js';
import { SignedInLine } from '../accounts/components/signed-in-line.js';
import { pageTitle, useDocumentMeta } from '../seo/use-document-meta.js';
import { Container } from '../ui/container.js';
import { AlertIcon } from '../ui/icons.js';
import { Spinner } from '../ui/spinner.js';
import { EmailOutboxPanel } from './components/email-outbox-panel.js';

/** The back office. Its own check stands even if a route were ever left unguarded. */
function AdminDashboard() {
  useDocumentMeta({ title: pageTitle('Admin Dashboard'), noindex: true });
  const { user, isLoading } = useSession();
  if (isLoading) return <Spinner label="Loading" className="min-h-[50vh]" />;
  if (user?.role !== 'admin') {
    return (
      <Container className="flex justify-center py-16">
        <div className="flex w-full max-w-md flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-8 text-center">
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
      <EmailOutboxPanel />
    </Container>
  );
}

export default function AdminPage() {
  return (
    <RequireAuth adminOnly>
      <AdminDashboard />
    </RequireAuth>
  );
}
