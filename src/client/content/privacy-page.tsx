import { paths } from '../lib/paths.js';
import { pageTitle, useDocumentMeta } from '../seo/use-document-meta.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { Container } from '../ui/container.js';
import { PrivacyContent } from './components/legal-content.js';

export default function PrivacyPage() {
  useDocumentMeta({
    title: pageTitle('Privacy Policy'),
    description: 'How EcoClean collects, uses and protects your information. We never sell or rent your data.',
    canonicalPath: paths.privacy,
  });
  return (
    <Container narrow className="py-8">
      <Breadcrumb items={[{ label: 'Home', to: paths.home }, { label: 'Privacy Policy' }]} />
      <h1 className="mb-6 text-3xl font-bold text-stone-900">Privacy Policy</h1>
      <PrivacyContent level={2} />
    </Container>
  );
}
