import { paths } from '../lib/paths.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { Container } from '../ui/container.js';
import { PrivacyContent } from '../ui/legal-content.js';

export default function PrivacyPage() {
  return (
    <Container narrow className="py-8">
      <Breadcrumb items={[{ label: 'Home', to: paths.home }, { label: 'Privacy Policy' }]} />
      <h1 className="mb-6 text-3xl font-bold text-stone-900">Privacy Policy</h1>
      <PrivacyContent level={2} />
    </Container>
  );
}
