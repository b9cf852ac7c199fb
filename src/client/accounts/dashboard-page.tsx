import { Link } from 'react-router';
import { paths } from '../lib/paths.js';
import { pageTitle, useDocumentMeta } from '../seo/use-document-meta.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { useSession } from './api/get-session.js';
import { SignedInLine } from './components/signed-in-line.js';
import { RequireAuth } from './require-auth.js';

function Dashboard() {
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  useDocumentMeta({ title: pageTitle(isAdmin ? 'Admin Dashboard' : 'My Dashboard'), noindex: true });
  if (!user) return null;
  return (
    <Container className="py-10">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-col gap-1">
          <h1 className="text-3xl font-bold text-stone-900">{isAdmin ? 'Admin Dashboard' : 'My Dashboard'}</h1>
          <SignedInLine user={user} />
        </div>
        {isAdmin && (
          <Link to={paths.admin} className={buttonClasses('primary', 'lg')}>
            Admin Panel
          </Link>
        )}
      </div>
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
