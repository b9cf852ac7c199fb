import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { App } from './app.js';
import { createQueryClient } from './lib/query-client.js';
import { hydrateInitialData } from './hydrate-initial-data.js';

const queryClient = createQueryClient();
hydrateInitialData(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
