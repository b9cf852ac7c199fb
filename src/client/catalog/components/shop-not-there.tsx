import { Link } from 'react-router';
import { buttonClasses } from '../../ui/button.js';

/** What the list says when the URL asks for what is not there (decision 0033). */
export const SHOP_MESSAGES = {
  categoryNotFound: 'Category Not Found',
  categoryNotFoundText: 'This category is not in the shop: it may have been renamed or removed.',
  pageNotFound: 'Page Not Found',
  pageNotFoundText: (last: number) => `This list ends at page ${last}.`,
  allProducts: 'View All Products',
  lastPage: (last: number) => `Go to Page ${last}`,
} as const;

/**
 * An unknown category (no `last`), or a page past the list's `last`, with the way back (`to`).
 * Loaded on demand: rare, so it stays out of the shop's first-load script; the server renders it
 * in full (its render waits for it) and the browser hydrates it once loaded.
 */
export default function ShopNotThere({ to, last }: { to: string; last?: number }) {
  const category = last === undefined;
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-stone-300 px-4 py-16 text-center">
      <h2 className="text-xl font-semibold text-stone-900">{category ? SHOP_MESSAGES.categoryNotFound : SHOP_MESSAGES.pageNotFound}</h2>
      <p className="text-stone-700">{category ? SHOP_MESSAGES.categoryNotFoundText : SHOP_MESSAGES.pageNotFoundText(last)}</p>
      <Link to={to} className={buttonClasses('primary', 'md')}>
        {category ? SHOP_MESSAGES.allProducts : SHOP_MESSAGES.lastPage(last)}
      </Link>
    </div>
  );
}
