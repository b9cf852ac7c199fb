import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../lib/api-client.js';
import type * as Schemas from '../contact-schemas.js';

export type ContactSchemas = typeof Schemas;

let pending: Promise<ContactSchemas> | undefined;

/** The contact schemas (and zod), loaded once (the form's page has them already). */
export function loadContactSchemas(): Promise<ContactSchemas> {
  pending ??= import('../contact-schemas.js').catch((err: unknown) => {
    pending = undefined; // let the next call try again (e.g. after a deploy replaced the chunk)
    throw err;
  });
  return pending;
}

export type ContactBody = z.output<ContactSchemas['ContactInput']>;

/** Stores the message on the server, which forwards it to the workflow endpoint when that is on. */
export async function submitContact(body: ContactBody): Promise<{ ok: true }> {
  const { ContactResponse } = await loadContactSchemas();
  return apiRequest('/api/contact', () => ContactResponse, { method: 'POST', body });
}

export function useSubmitContact() {
  return useMutation({
    mutationFn: submitContact,
    // The form shows the failure to the person in a toast; a refusal is not a console error.
    onError: () => undefined,
  });
}
