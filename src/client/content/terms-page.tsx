import { paths } from '../lib/paths.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { Container } from '../ui/container.js';
import { TermsContent } from '../ui/legal-content.js';

export default function TermsPage() {
  return (
    <Container narrow className="py-8">
      <Breadcrumb items={[{ label: 'Home', to: paths.home }, { label: 'Terms of Service' }]} />
      <h1 className="mb-6 text-3xl font-bold text-stone-900">Terms of Service</h1>
      <TermsContent level={2} />
    </Container>
  );
}
