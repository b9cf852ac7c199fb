import { useEffect } from 'react';
import { useSession } from '../lib/get-session.js';

/**
 * Mounted once (root layout): while a customer is signed in, their cart and the account's are kept
 * in step (saved-cart-sync.ts, loaded then, so guests never download it). While an admin acts as a
 * customer nothing is synced: the customer's saved cart is read-only (decision 0030).
 */
export function useSavedCartSync(): void {
  const { user, impersonatorEmail } = useSession();
  const userId = user && !impersonatorEmail ? user.id : null;

  useEffect(() => {
    if (!userId) return;
    // Effects run only in the browser, after hydration.
    const started = import('./saved-cart-sync.js').then((m) => m.startSavedCartSync(userId));
    return () =>
      void started.then(
        (stop) => stop(),
        () => undefined,
      );
  }, [userId]);
}
