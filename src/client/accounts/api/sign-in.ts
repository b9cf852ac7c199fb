import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionResponse, SignInInput } from '../../../shared/schemas/auth.js';
import { apiRequest } from '../../lib/api-client.js';
import { applySession } from '../../lib/get-session.js';
import { loadAuthSchemas } from '../../lib/load-auth-schemas.js';

async function signIn(input: SignInInput): Promise<SessionResponse> {
  const schemas = await loadAuthSchemas();
  return apiRequest('/api/auth/sign-in', () => schemas.SessionResponse, { method: 'POST', body: input });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => applySession(queryClient, session),
    // The form shows the error to the person; a wrong password is not worth a console error.
    onError: () => undefined,
  });
}
