import { useEffect } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './routes.js';

export function App({ queryClient, onLive }: { queryClient: QueryClient; onLive?: () => void }) {
  // Marks the page as live (its buttons and fields answer): browser journeys wait for it before
  // they click on a server-rendered page. What the server left for after hydration comes first.
  useEffect(() => {
    onLive?.();
    document.documentElement.dataset.hydrated = 'true';
  }, [onLive]);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
