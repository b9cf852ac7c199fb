import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.js';
import { loadAuthSchemas } from '../../lib/load-auth-schemas.js';

async function validateResetToken(token: string, signal?: AbortSignal): Promise<{ valid: true; email: string }> {
  const schemas = await loadAuthSchemas();
  return apiRequest('/api/auth/password-reset/validate', () => schemas.ResetTokenStatus, {
    method: 'POST',
    body: { token },
    signal,
  });
}

/** Whether a reset link's token can still be used; the error carries the server's reason. */
export function useResetTokenStatus(token: string) {
  return useQuery({
    queryKey: ['password-reset', 'validate', token],
    queryFn: ({ signal }) => validateResetToken(token, signal),
    enabled: token !== '',
    // A verdict does not change by asking again, and a used token must be asked about afresh.
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}
