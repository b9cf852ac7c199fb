import { Link } from 'react-router';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';

export default function NotFoundPage() {
  return (
    <Container className="flex flex-col items-center gap-6 py-20 text-center">
      <p className="text-6xl font-bold text-brand-700" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-bold text-stone-900">Page Not Found</h1>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to={paths.home} className={buttonClasses('primary', 'lg')}>
          Return Home
        </Link>
        <Link to={paths.auth} className={buttonClasses('outline', 'lg')}>
          Sign In
        </Link>
      </div>
    </Container>
  );
}
