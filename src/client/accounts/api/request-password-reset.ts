import { useMutation } from '@tanstack/react-query';
import type { PasswordResetRequestInput } from '../../../shared/schemas/auth.js';
import { apiRequest } from '../../lib/api-client.js';
import { loadAuthSchemas } from '../../lib/load-auth-schemas.js';

/** Always answers ok when the input is valid, whether or not the address has an account. */
async function requestPasswordReset(input: PasswordResetRequestInput): Promise<{ ok: true }> {
  const schemas = await loadAuthSchemas();
  return apiRequest('/api/auth/password-reset', () => schemas.OkResponse, { method: 'POST', body: input });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: requestPasswordReset,
    // The form shows the error to the person.
    onError: () => undefined,
  });
}
