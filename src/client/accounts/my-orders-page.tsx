import { pageTitle, useDocumentMeta } from '../seo/use-document-meta.js';
import { Container } from '../ui/container.js';
import { useSession } from './api/get-session.js';
import { SignedInLine } from './components/signed-in-line.js';
import { RequireAuth } from './require-auth.js';

function MyOrders() {
  const { user } = useSession();
  useDocumentMeta({ title: pageTitle('My Orders'), noindex: true });
  if (!user) return null;
  return (
    <Container className="py-10">
      <h1 className="mb-1 text-3xl font-bold text-stone-900">My Orders</h1>
      <SignedInLine user={user} />
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
