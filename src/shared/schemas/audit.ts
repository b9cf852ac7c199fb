import { z } from 'zod';
import { pageOf, pageQuery } from './paging.js';

/**
 * What the audit log records (src/server/audit/audit.ts, decision 0020), with the label the
 * back office's Users tab shows for each. The actor is always the person at the keyboard: the
 * real admin while impersonating, with the customer they acted as beside them.
 */
export const AUDIT_ACTIONS = {
  'impersonation.start': 'Impersonation started',
  'impersonation.end': 'Impersonation ended',
  'user.role_changed': 'Role changed',
  'user.verification_changed': 'Verification changed',
  'user.loyalty_points_changed': 'Loyalty points changed',
  'account.email_changed': 'Email changed',
  'account.password_changed': 'Password changed',
  'account.contact_changed': 'Contact details changed',
  'account.address_changed': 'Address changed',
  'account.deleted': 'Account deleted',
  'order.placed': 'Order placed',
  'order.refunded': 'Order refunded',
  'order.deleted': 'Order deleted',
  'order.payment_method_corrected': 'Payment method corrected',
  'stock.hold_ended': 'Checkout hold ended',
  'order.status_changed': 'Order status changed',
  'order.cancelled': 'Order cancelled',
  'order.label_bought': 'Label bought',
  'order.label_voided': 'Label voided',
  'settings.changed': 'Settings changed',
  'product.price_changed': 'Price changed',
  'template.changed': 'Email template changed',
  'impersonation.viewed': 'Viewed while impersonating',
  'subscription.plan_changed': 'Subscription plan changed',
  'subscription.cancelled': 'Subscription cancelled',
  'subscription.changed': 'Subscription changed by the shop',
  // The owner's moderation of reviews (issue [6/8]): the reason and note of a hide are kept in details.
  'review.approved': 'Review approved',
  'review.hidden': 'Review hidden',
  'review.replied': 'Review replied to',
  'review.photos_hidden': 'Review photos hidden',
  'review.photos_shown': 'Review photos shown',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
const CHOOSE_ACTION = 'Choose an action from the list';
export const AuditAction = z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]], { message: CHOOSE_ACTION });
/** An action, or '' for any. */
const actionOrAny = z.union([z.literal(''), AuditAction], { message: CHOOSE_ACTION });

export const AUDIT_MESSAGES = {
  badDate: 'Dates must be written as YYYY-MM-DD',
  dateOrder: '"To" must be on or after "From"',
  empty: 'No audit entries yet.',
  emptyFiltered: 'No audit entries match these filters.',
} as const;

const day = z
  .string()
  .trim()
  .max(10, AUDIT_MESSAGES.badDate)
  .refine((v) => v === '' || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))), AUDIT_MESSAGES.badDate);

/** A person filter: a user id or an exact e-mail address (compared in lower case). */
const person = z.string().trim().max(254, 'Cannot exceed 254 characters');

/** The audit log's filters as the Users tab's form holds them (empty = any). */
export const AuditLogFilters = z
  .object({
    action: actionOrAny,
    actor: person,
    user: person,
    from: day,
    to: day,
  })
  .strict()
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: AUDIT_MESSAGES.dateOrder, path: ['to'] });
export type AuditLogFilters = z.infer<typeof AuditLogFilters>;
export const NO_AUDIT_FILTERS: AuditLogFilters = { action: '', actor: '', user: '', from: '', to: '' };

const emptyAsUndefined = <T extends z.ZodType<string>>(s: T) => s.optional().transform((v) => v || undefined);

/**
 * GET /api/admin/audit-log: a page of the log, newest first. `actor` and `user` (the account acted
 * on) take a user id or an e-mail address; `from` and `to` are UTC days, both included.
 */
export const AuditLogQuery = pageQuery(25)
  .omit({ search: true })
  .extend({
    action: actionOrAny.optional().transform((v) => v || undefined),
    actor: emptyAsUndefined(person),
    user: emptyAsUndefined(person),
    from: emptyAsUndefined(day),
    to: emptyAsUndefined(day),
  })
  .strict()
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: AUDIT_MESSAGES.dateOrder, path: ['to'] });
export type AuditLogQuery = z.output<typeof AuditLogQuery>;

/** An account an entry names; `email` is null once the account was deleted (the log keeps ids only). */
const AuditPerson = z.object({ id: z.string(), email: z.string().nullable() });

export const AuditEntry = z.object({
  id: z.string(),
  action: z.string(),
  /** The person at the keyboard (the real admin while impersonating); null for the shop itself. */
  actor: AuditPerson.nullable(),
  /** The customer the actor was acting as, while impersonating. */
  actingAs: AuditPerson.nullable(),
  /** The account acted on. */
  target: AuditPerson.nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditLogPage = pageOf(AuditEntry);
export type AuditLogPage = z.infer<typeof AuditLogPage>;
