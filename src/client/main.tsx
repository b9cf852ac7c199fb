import './styles.css';

/**
 * The app's code is evaluated in two stages, each in a task of its own: React DOM, then the router,
 * the query cache and the app's modules (start.tsx), which hydrate the page in a task of their own
 * again. Evaluated at once, the code was one task long enough to block a phone's main thread for a
 * tenth of a second. Both stages' files are preloaded with the page (vite.config.ts), so this adds
 * no round trip.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

import('react-dom/client')
  .then(nextTask)
  .then(() => import('./start.js'))
  .then(({ start }) => start())
  .catch((err: unknown) => {
    // The server's HTML stays as it is: its links and forms still work, without the app's code.
    console.error('The app could not start', err);
  });
