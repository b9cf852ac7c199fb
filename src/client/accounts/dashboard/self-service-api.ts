import '../../lib/zod-config.js';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ChangePasswordInput, DeleteAccountInput } from '../../../shared/schemas/account-self-service.js';
import { SessionUser, type SessionResponse } from '../../../shared/schemas/auth.js';
import { apiRequestWith } from '../../lib/api-client.js';
import { sessionQueryKey } from '../../lib/get-session.js';

/** The "Download My Data" file: a plain link, so the browser saves the server's attachment with the session cookie. */
export const ACCOUNT_DATA_URL = '/api/account/data';

const PasswordChanged = z.object({ ok: z.literal(true), user: SessionUser });
const Ok = z.object({ ok: z.literal(true) });

/** PUT /api/account/password; the session keeps the user the server answered. */
export async function changePassword(queryClient: QueryClient, input: ChangePasswordInput): Promise<void> {
  const { user } = await apiRequestWith('/api/account/password', () => Promise.resolve(PasswordChanged), { method: 'PUT', body: input });
  queryClient.setQueryData<SessionResponse>(sessionQueryKey, (prev) => ({ user, impersonatorEmail: prev?.impersonatorEmail ?? null }));
}

/** POST /api/account/delete: the server signs this browser out (the caller forgets the cached session and cart). */
export async function deleteAccount(input: DeleteAccountInput): Promise<void> {
  await apiRequestWith('/api/account/delete', () => Promise.resolve(Ok), { method: 'POST', body: input });
}
