import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequestWith } from '../../lib/api-client.js';
import { sessionQueryKey } from '../../lib/get-session.js';
import { loadAuthSchemas } from '../../lib/load-auth-schemas.js';

async function verifyEmail(token: string, signal?: AbortSignal) {
  return apiRequestWith('/api/auth/verify-email', () => loadAuthSchemas().then((s) => s.VerifyEmailResponse), {
    method: 'POST',
    body: { token },
    signal,
  });
}

/**
 * Follows a verification link once per page: the answer (or the server's reason it cannot) is
 * kept; the session and the order list are read afresh, as the link may have changed both.
 */
export function useVerifyEmail(token: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['verify-email', token],
    queryFn: async ({ signal }) => {
      const answer = await verifyEmail(token, signal);
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      await queryClient.invalidateQueries({ queryKey: ['orders'] });
      await queryClient.invalidateQueries({ queryKey: ['account'] });
      return answer;
    },
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

/** "Resend" on the account page: a new link to the account's address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () =>
      apiRequestWith('/api/account/verify-email/resend', () => loadAuthSchemas().then((s) => s.ResendVerificationResponse), {
        method: 'POST',
      }),
    onError: () => undefined,
  });
}
