import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasswordResetConfirmInput } from '../../../shared/schemas/auth.js';
import { apiRequest } from '../../lib/api-client.js';
import { applySession, SIGNED_OUT } from '../../lib/get-session.js';
import { loadAuthSchemas } from '../../lib/load-auth-schemas.js';

async function confirmPasswordReset(input: PasswordResetConfirmInput): Promise<{ ok: true }> {
  const schemas = await loadAuthSchemas();
  return apiRequest('/api/auth/password-reset/confirm', () => schemas.OkResponse, { method: 'POST', body: input });
}

export function useConfirmPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPasswordReset,
    // The server ends every session of that account when its password changes.
    onSuccess: () => applySession(queryClient, SIGNED_OUT),
    // The form shows the error to the person.
    onError: () => undefined,
  });
}
