import { Link } from 'react-router';
import { buttonClasses } from './button.js';

type PaginationProps = {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
};

export function Pagination({ page, totalPages, hrefFor }: PaginationProps) {
  if (totalPages <= 1) return null;
  const hasPrev = page > 1;
  const hasNext = page < totalPages;
  const cls = buttonClasses('outline', 'md');
  // Not faded with opacity: the disabled label must still meet contrast.
  const disabledCls =
    'inline-flex h-10 items-center rounded-md border border-stone-300 px-4 text-sm font-medium text-stone-600 cursor-not-allowed';
  return (
    <nav aria-label="Pagination" className="mt-10 flex items-center justify-center gap-4">
      {hasPrev ? (
        <Link to={hrefFor(page - 1)} rel="prev" className={cls}>
          Previous
        </Link>
      ) : (
        <span aria-disabled="true" className={disabledCls}>
          Previous
        </span>
      )}
      <p className="text-sm text-stone-700" aria-current="page">
        Page {page} of {totalPages}
      </p>
      {hasNext ? (
        <Link to={hrefFor(page + 1)} rel="next" className={cls}>
          Next
        </Link>
      ) : (
        <span aria-disabled="true" className={disabledCls}>
          Next
        </span>
      )}
    </nav>
  );
}
