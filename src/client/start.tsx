import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app.js';
import { createQueryClient } from './lib/query-client.js';
import { hydrateInitialData, viewerSessionApplier } from './hydrate-initial-data.js';
import { preloadRoute } from './routes.js';
import { hydratingServerPage } from './lib/hydrate-when-visible.js';

/** Starts the app (main.tsx loads this module once React is in). */
export function start(): void {
  const queryClient = createQueryClient();
  hydrateInitialData(queryClient);

  const root = document.getElementById('root');
  if (!root) throw new Error('Missing #root element');

  const app = (
    <StrictMode>
      <App queryClient={queryClient} onLive={viewerSessionApplier(queryClient)} />
    </StrictMode>
  );

  // Storefront pages arrive rendered by the server: load the page's code, then hydrate.
  // The hydration runs as a transition, so React yields to the browser every few milliseconds
  // (a click or a scroll is never held up by one long task) instead of hydrating the page at once.
  // Anything else starts from scratch.
  if (root.firstElementChild) {
    const container = root;
    // The footer and the lower sections of this page hydrate when they come near the screen.
    hydratingServerPage();
    // A fresh task first: the browser paints and answers input between evaluating the code and hydrating.
    const hydrate = () => setTimeout(() => startTransition(() => void hydrateRoot(container, app)), 0);
    preloadRoute(window.location.pathname).then(hydrate, hydrate);
  } else {
    createRoot(root).render(app);
  }
}
