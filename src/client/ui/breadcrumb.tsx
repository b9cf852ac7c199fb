import { Link } from 'react-router';
import { ChevronRightIcon } from './icons.js';

export type BreadcrumbItem = { label: string; to?: string };

/** Visible trail; the last item is the current page. */
export function Breadcrumb({ items }: { items: BreadcrumbItem[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-6 text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-stone-600">
        {items.map((item, i) => {
          const last = i === items.length - 1;
          return (
            <li key={`${item.label}-${i}`} className="flex items-center gap-1">
              {i > 0 && <ChevronRightIcon size={14} className="text-stone-500" />}
              {last || !item.to ? (
                <span aria-current={last ? 'page' : undefined} className={last ? 'font-medium text-stone-900' : ''}>
                  {item.label}
                </span>
              ) : (
                <Link
                  to={item.to}
                  className="rounded hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  {item.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
