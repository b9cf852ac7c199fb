import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client.js';
import { applySession, forgetUserData, SIGNED_OUT, sessionQueryKey } from './get-session.js';
import { loadAuthSchemas } from './load-auth-schemas.js';

/**
 * Ends the session (or, while impersonating, the impersonation) and forgets the user's cached
 * data. `leave` (told whether only an impersonation ended) runs once the server has answered and
 * before the cached session changes, so the caller can navigate away first and guarded pages do
 * not react to the change on their own.
 * A plain function rather than a mutation hook: the header uses it, and the storefront's
 * first-load bundle has no room for the mutation machinery.
 */
export async function signOut(queryClient: QueryClient, leave: (outcome: { impersonationEnded: boolean }) => void): Promise<void> {
  const schemas = await loadAuthSchemas();
  const res = await apiRequest('/api/auth/sign-out', () => schemas.SignOutResponse, { method: 'POST' });
  if (res.impersonationEnded) {
    // The admin is still signed in as themselves: learn who that is before leaving.
    forgetUserData(queryClient);
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    leave({ impersonationEnded: true });
    return;
  }
  leave({ impersonationEnded: false });
  applySession(queryClient, SIGNED_OUT);
}
