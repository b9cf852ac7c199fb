import type { ComponentType } from 'react';
import { matchPath, Route, Routes } from 'react-router';
import { PAGES } from '../shared/pages.js';
import type { PageDeclaration } from '../shared/page-declaration.js';
import { RootLayout } from './layout/root-layout.js';
import { lazyPage, type PreloadablePage } from './lazy-page.js';
import { afterZod } from './lib/load-zod.js';
import { PageHead } from './seo/page-head.js';

type PageModule = { default: ComponentType };

// Every page comes from the page table (src/shared/pages.ts), which names its component's file.
// Home and Shop ship in the main bundle; the rest load on demand, the page being opened before the
// app starts (pages that use zod after zod, see load-zod.ts). The product page (its gallery, related
// products and free-shipping line) loads on demand too: the shop's list hydrates without its code.
const MAIN_BUNDLE = import.meta.glob<PageModule>(['./catalog/home-page.tsx', './catalog/shop-page.tsx'], { eager: true });
const ON_DEMAND = import.meta.glob<PageModule>([
  './**/*-page.tsx',
  '!./lazy-page.tsx',
  '!./catalog/home-page.tsx',
  '!./catalog/shop-page.tsx',
]);

type RoutePage = { page: PageDeclaration; Component: ComponentType; preload: () => Promise<unknown> };

function routePage(page: PageDeclaration): RoutePage {
  const file = `./${page.component}`;
  const eager = MAIN_BUNDLE[file];
  if (eager) return { page, Component: eager.default, preload: () => Promise.resolve() };
  const load = ON_DEMAND[file];
  if (!load) throw new Error(`No component ${file} for the page "${page.id}"`);
  const lazy: PreloadablePage = lazyPage(page.needsZod ? afterZod(load) : load);
  return { page, Component: lazy, preload: lazy.preload };
}

const ROUTE_PAGES = PAGES.map(routePage);
const FALLBACK = ROUTE_PAGES.find((r) => r.page.path === '*')!;

/** Loads the code of the page at this path (nothing for pages in the main bundle). */
export function preloadRoute(pathname: string): Promise<unknown> {
  const hit = ROUTE_PAGES.find((r) => r.page.path !== '*' && matchPath(r.page.path, pathname));
  return (hit ?? FALLBACK).preload();
}

function PageElement({ page, Component }: RoutePage) {
  return (
    <>
      <PageHead page={page} />
      <Component />
    </>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {ROUTE_PAGES.map((r) =>
          r.page.path === '/' ? (
            <Route key={r.page.id} index element={<PageElement {...r} />} />
          ) : (
            <Route key={r.page.id} path={r.page.path === '*' ? '*' : r.page.path.slice(1)} element={<PageElement {...r} />} />
          ),
        )}
      </Route>
    </Routes>
  );
}
