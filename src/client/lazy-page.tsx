import { lazy, type ComponentType } from 'react';

export type PreloadablePage = ComponentType & { preload: () => Promise<unknown> };

/**
 * A route component loaded on demand that can also be loaded ahead of rendering. Once loaded it
 * renders without suspending, so the server's HTML needs no streaming scripts (our CSP forbids
 * inline scripts) and the browser can hydrate a server-rendered page in one pass.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): PreloadablePage {
  let Loaded: ComponentType | null = null;
  let pending: Promise<unknown> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (m) => {
        Loaded = m.default;
        return m;
      },
      (err: unknown) => {
        pending = null;
        throw err;
      },
    ));
  const Lazy = lazy(() => preload().then(() => ({ default: Loaded! })));
  function Page() {
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return Object.assign(Page, { preload });
}
