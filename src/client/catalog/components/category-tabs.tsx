import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Category } from '../../../shared/schemas/catalog.js';

type CategoryTabsProps = {
  categories: Category[];
  active: string | undefined;
  /** Builds the link for a category (undefined = All), keeping the other filters. */
  hrefFor: (categoryId: string | undefined) => string;
};

/** Category filter as links, so every category list is a crawlable URL. */
export function CategoryTabs({ categories, active, hrefFor }: CategoryTabsProps) {
  const items = [
    { id: undefined as string | undefined, name: 'All' },
    ...categories.map((c) => ({ id: c.id as string | undefined, name: c.name })),
  ];
  const nav = useRef<HTMLElement>(null);
  // On a phone the tabs scroll sideways: the chosen one is brought into view.
  useEffect(() => {
    nav.current?.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [active]);
  return (
    <nav ref={nav} aria-label="Product categories" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex w-max gap-2 pb-2 sm:w-auto sm:flex-wrap">
        {items.map((c) => {
          const isActive = c.id === active;
          return (
            <li key={c.id ?? 'all'}>
              <Link
                to={hrefFor(c.id)}
                aria-current={isActive ? 'page' : undefined}
                className={`inline-flex h-10 items-center whitespace-nowrap rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                  isActive
                    ? 'border-brand-600 bg-brand-600 text-white'
                    : 'border-stone-300 bg-white text-stone-800 hover:border-brand-600 hover:text-brand-700'
                }`}
              >
                {c.name}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
