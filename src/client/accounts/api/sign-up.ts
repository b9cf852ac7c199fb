import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionResponse, SignUpInput } from '../../../shared/schemas/auth.js';
import { apiRequest } from '../../lib/api-client.js';
import { applySession } from '../../lib/get-session.js';
import { loadAuthSchemas } from '../../lib/load-auth-schemas.js';

async function signUp(input: SignUpInput): Promise<SessionResponse> {
  const schemas = await loadAuthSchemas();
  return apiRequest('/api/auth/sign-up', () => schemas.SessionResponse, { method: 'POST', body: input });
}

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signUp,
    onSuccess: (session) => applySession(queryClient, session),
    // The form shows the error to the person.
    onError: () => undefined,
  });
}
