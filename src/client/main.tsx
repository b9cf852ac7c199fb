import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './styles.css';
import { App } from './app.js';
import { createQueryClient } from './lib/query-client.js';
import { hydrateInitialData } from './hydrate-initial-data.js';
import { preloadRoute } from './routes.js';

const queryClient = createQueryClient();
hydrateInitialData(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

const app = (
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>
);

// Storefront pages arrive rendered by the server: load the page's code, then hydrate in one pass.
// Anything else starts from scratch.
if (root.firstElementChild) {
  const container = root;
  preloadRoute(window.location.pathname).then(
    () => hydrateRoot(container, app),
    () => hydrateRoot(container, app),
  );
} else {
  createRoot(root).render(app);
}
