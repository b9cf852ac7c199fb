import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../lib/api-client.js';
import { ContactResponse, type ContactInput } from '../contact-schemas.js';

type ContactBody = z.output<typeof ContactInput>;

/** Stores the message on the server, which forwards it to the workflow endpoint when that is on. */
async function submitContact(body: ContactBody): Promise<{ ok: true }> {
  return apiRequest('/api/contact', () => ContactResponse, { method: 'POST', body });
}

export function useSubmitContact() {
  return useMutation({
    mutationFn: submitContact,
    // The form shows the failure to the person in a toast; a refusal is not a console error.
    onError: () => undefined,
  });
}
