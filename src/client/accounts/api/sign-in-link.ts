import { useMutation } from '@tanstack/react-query';
import type { SignInLinkConfirmed, SignInLinkConfirmInput, SignInLinkRequestInput } from '../../../shared/schemas/auth.js';
import { apiRequest } from '../../lib/api-client.js';
import { loadAuthSchemas } from '../../lib/load-auth-schemas.js';

/** Always answers ok for a valid address, whether or not it has an account (decision 0040). */
async function requestSignInLink(input: SignInLinkRequestInput): Promise<{ ok: true }> {
  const schemas = await loadAuthSchemas();
  return apiRequest('/api/auth/sign-in-link', () => schemas.OkResponse, { method: 'POST', body: input });
}

/** Opens a sign-in link in this browser: the server gives it the account's device cookie. */
async function confirmSignInLink(input: SignInLinkConfirmInput): Promise<SignInLinkConfirmed> {
  const schemas = await loadAuthSchemas();
  return apiRequest('/api/auth/sign-in-link/confirm', () => schemas.SignInLinkConfirmed, { method: 'POST', body: input });
}

export function useRequestSignInLink() {
  return useMutation({
    mutationFn: requestSignInLink,
    // The form shows the error to the person.
    onError: () => undefined,
  });
}

export function useConfirmSignInLink() {
  return useMutation({
    mutationFn: confirmSignInLink,
    onError: () => undefined,
  });
}
