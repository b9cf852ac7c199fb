import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { adminGet, adminSend, logUnexpected } from './admin-api.js';
import { ContactMessageCounts, ContactMessageState } from '../../../shared/schemas/contact-messages.js';

/**
 * The back office's e-mail and contact-message calls: templates (list, preview, save, delete,
 * test send), the SMTP connection check, the outbox retry and the contact messages. Every answer
 * is parsed with the schema beside its call.
 */

export const EmailTemplate = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.string(),
  html: z.string(),
  text: z.string().nullable(),
  variables: z.array(z.string()),
  builtIn: z.boolean(),
  updatedAt: z.string(),
});
export type EmailTemplate = z.infer<typeof EmailTemplate>;

const EmailTemplatesResponse = z.object({ items: z.array(EmailTemplate) });
type TemplatesData = z.infer<typeof EmailTemplatesResponse>;
const EmailTemplateResponse = z.object({ template: EmailTemplate });
const EmailPreview = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type EmailPreview = z.infer<typeof EmailPreview>;
const TestEmailResponse = z.object({ ok: z.literal(true), message: z.string() });
const EmailConnection = z.object({ connected: z.boolean(), configured: z.boolean().optional(), error: z.string().optional() });
export type EmailConnection = z.infer<typeof EmailConnection>;
const Ok = z.object({ ok: z.literal(true) });

export const ContactMessage = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  /** stored (forwarding off when it arrived), pending, forwarded or failed */
  forwardStatus: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** The owner's reading of it (migration 0036). */
  state: ContactMessageState,
  stateChangedAt: z.string().nullable(),
});
export type ContactMessage = z.infer<typeof ContactMessage>;
const ContactMessagePage = z.object({
  items: z.array(ContactMessage),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  counts: ContactMessageCounts,
});
export type ContactMessagePage = z.infer<typeof ContactMessagePage>;

const TEMPLATES_KEY = ['admin', 'email-templates'] as const;
const CONNECTION_KEY = ['admin', 'email-connection'] as const;
const MESSAGES_KEY = ['admin', 'contact-messages'] as const;
const OUTBOX_KEY = ['admin', 'email-outbox'] as const;
export const CONTACT_MESSAGES_PAGE_SIZE = 20;

const enc = encodeURIComponent;

// ---- Templates ----

function getEmailTemplatesQueryOptions() {
  return queryOptions({
    queryKey: TEMPLATES_KEY,
    queryFn: ({ signal }) => adminGet('/api/admin/email-templates', EmailTemplatesResponse, undefined, signal),
    select: (r) => r.items,
    staleTime: 0,
  });
}

export function useEmailTemplates() {
  return useQuery(getEmailTemplatesQueryOptions());
}

/** The stored template rendered with sample data, exactly as a recipient would get it. */
export function useEmailTemplatePreview(id: string | null) {
  return useQuery({
    queryKey: [...TEMPLATES_KEY, id, 'preview'] as const,
    queryFn: ({ signal }) => adminGet(`/api/admin/email-templates/${enc(id ?? '')}/preview`, EmailPreview, undefined, signal),
    enabled: id !== null,
    staleTime: 0,
  });
}

type SaveTemplateBody = { id: string; name: string; subject: string; html: string; text: string | null; variables: string[] };

/** Puts a built-in template back to the shop's own text. */
export function useRestoreEmailTemplate() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('POST', `/api/admin/email-templates/${enc(id)}/restore-default`, EmailTemplateResponse),
    onSuccess: ({ template }) => {
      qc.setQueryData<TemplatesData>(TEMPLATES_KEY, (old) =>
        old ? { items: old.items.map((t) => (t.id === template.id ? template : t)) } : old,
      );
      // Its preview sits under the same key.
      return qc.invalidateQueries({ queryKey: TEMPLATES_KEY });
    },
  });
}

export function useSaveEmailTemplate() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: SaveTemplateBody) => adminSend('POST', '/api/admin/email-templates', EmailTemplateResponse, body),
    onSuccess: ({ template }) => {
      // In the list at once, so a new template can be selected before the refetch lands.
      qc.setQueryData<TemplatesData>(TEMPLATES_KEY, (old) =>
        old
          ? {
              items: old.items.some((t) => t.id === template.id)
                ? old.items.map((t) => (t.id === template.id ? template : t))
                : [...old.items, template],
            }
          : old,
      );
      return qc.invalidateQueries({ queryKey: TEMPLATES_KEY });
    },
  });
}

export function useDeleteEmailTemplate() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('DELETE', `/api/admin/email-templates/${enc(id)}`, Ok),
    onSuccess: (_r, id) => {
      qc.setQueryData<TemplatesData>(TEMPLATES_KEY, (old) => (old ? { items: old.items.filter((t) => t.id !== id) } : old));
      return qc.invalidateQueries({ queryKey: TEMPLATES_KEY });
    },
  });
}

export function useSendTestEmail() {
  const qc = useQueryClient();
  return useMutation({
    // The UI says 'Check console for details', so the details always go there.
    onError: (err) => console.error('Test e-mail failed:', err),
    mutationFn: (body: { templateId: string; testEmail: string }) =>
      adminSend('POST', '/api/admin/email-templates/test', TestEmailResponse, body),
    onSettled: () => qc.invalidateQueries({ queryKey: OUTBOX_KEY }),
  });
}

// ---- Connection ----

/** A real SMTP check on the server; it takes a moment, so it runs once per visit, not on focus. */
export function useEmailConnection() {
  return useQuery({
    queryKey: CONNECTION_KEY,
    queryFn: ({ signal }) => adminGet('/api/email/test-connection', EmailConnection, undefined, signal),
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

// ---- Outbox ----

export function useRetryOutboxEmail() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('POST', `/api/admin/email-outbox/${enc(id)}/retry`, Ok),
    onSettled: () => qc.invalidateQueries({ queryKey: OUTBOX_KEY }),
  });
}

// ---- Contact messages ----

export function useContactMessages(page: number, state?: ContactMessageState) {
  const query = { page, pageSize: CONTACT_MESSAGES_PAGE_SIZE, ...(state ? { state } : {}) };
  return useQuery({
    queryKey: [...MESSAGES_KEY, query] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/contact-messages', ContactMessagePage, query, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** How many messages wait unread (the Messages tab's count); refreshed with the list. */
export function useContactMessageCounts() {
  return useQuery({
    queryKey: [...MESSAGES_KEY, 'counts'] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/contact-messages/counts', ContactMessageCounts, undefined, signal),
    staleTime: 0,
  });
}

/** The owner marks a message unread, read or answered. */
export function useSetContactMessageState() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: ({ id, state }: { id: string; state: ContactMessageState }) =>
      adminSend(
        'PATCH',
        `/api/admin/contact-messages/${enc(id)}/state`,
        z.object({ message: z.object({ id: z.string(), state: ContactMessageState }) }),
        { state },
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: MESSAGES_KEY }),
  });
}

export function useRetryContactForward() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('POST', `/api/admin/contact-messages/${enc(id)}/retry`, Ok),
    onSettled: () => qc.invalidateQueries({ queryKey: MESSAGES_KEY }),
  });
}
