import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Database, SubscriptionStatus } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { containsText, pageOf } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import type { AuditBy } from '../audit/audit.js';
import { lineTitle } from '../../shared/variants.js';
import { CancelSubscriptionInput, SUBSCRIPTION_MESSAGES, subscriptionLineText } from '../../shared/subscriptions.js';
import { pageQuery } from '../../shared/schemas/paging.js';
import { listSubscriptionEvents, type SubscriptionEvent } from './events.js';
import { subscriptionViews } from './customer-subscriptions.js';
import type { OrderEventActor } from '../lib/actors.js';
import type { SubscriptionView } from '../../shared/subscriptions.js';
import { cancelSubscription } from './cancel.js';

/**
 * The owner's Subscriptions tab (issue [5/8]): every subscription, filtered by status and
 * searched, a page at a time; one with its cycles; and a cancellation on the customer's behalf.
 */

export const ADMIN_SUBSCRIPTION_STATUSES = [
  'active',
  'paused',
  'payment_failing',
  'cancelled',
] as const satisfies readonly SubscriptionStatus[];

export const ADMIN_SUBSCRIPTION_MESSAGES = {
  badStatus: 'status must be one of active, paused, payment_failing or cancelled',
  searchTooLong: 'Search text cannot exceed 100 characters',
  notifyRequired: 'notifyCustomer must be true or false',
} as const;

/** The most cycles the detail lists (newest first): a weekly subscription makes 52 a year. */
export const ADMIN_CYCLES_SHOWN = 50;

/** GET /api/admin/subscriptions: `status` (or none), `q`, `page`, `pageSize` (1–100, default 20). */
export const AdminSubscriptionListQuery = pageQuery(20)
  .omit({ search: true })
  .extend({
    status: z
      .union([z.literal(''), z.enum(ADMIN_SUBSCRIPTION_STATUSES)], { message: ADMIN_SUBSCRIPTION_MESSAGES.badStatus })
      .optional()
      .transform((v) => v || undefined),
    q: z
      .string()
      .trim()
      .max(100, ADMIN_SUBSCRIPTION_MESSAGES.searchTooLong)
      .optional()
      .transform((v) => v || undefined),
  })
  .strict();
export type AdminSubscriptionListQuery = z.output<typeof AdminSubscriptionListQuery>;

/** POST /api/admin/subscriptions/:id/cancel: the customer's optional reason, and whether to e-mail them. */
export const AdminCancelSubscriptionInput = CancelSubscriptionInput.extend({
  notifyCustomer: z.boolean({ message: ADMIN_SUBSCRIPTION_MESSAGES.notifyRequired }),
}).strict();
export type AdminCancelSubscriptionInput = z.output<typeof AdminCancelSubscriptionInput>;

export type AdminSubscriptionItem = { productId: string; variantId: string; name: string; quantity: number; sku: string | null };

export type AdminSubscriptionRow = {
  id: string;
  status: SubscriptionStatus;
  email: string;
  userId: string;
  everyWeeks: number;
  discountPercent: number;
  /** "Every 4 weeks · 10% off". */
  terms: string;
  items: AdminSubscriptionItem[];
  /** Null once cancelled. */
  nextRenewalAt: string | null;
  deliveries: number;
  failingSince: string | null;
  createdAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
};

export type AdminSubscriptionCounts = Record<SubscriptionStatus, number>;

export type AdminSubscriptionPage = {
  subscriptions: AdminSubscriptionRow[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
  /** Per status, for the filter chips: within the search, whatever the status filter. */
  counts: AdminSubscriptionCounts;
};

export type AdminSubscriptionCycle = {
  cycle: number;
  dueAt: string;
  status: string;
  attempts: number;
  message: string | null;
  orderId: string | null;
  orderNumber: string | null;
  amountCents: number | null;
};

export type AdminSubscriptionDetail = AdminSubscriptionRow & {
  cycles: AdminSubscriptionCycle[];
  /** Its timeline, newest first (the newest ADMIN_CYCLES_SHOWN): who did what, as they read then. */
  events: SubscriptionEvent[];
  /** One-time items riding with the next delivery, and items left out of it. */
  extras: SubscriptionView['extras'];
  /** Where it ships, as the address form edits it. */
  address: SubscriptionView['address'];
  skippedNext: string[];
  card: { brand: string; last4: string } | null;
  consentText: string;
  consentAt: string;
  firstOrder: { id: string; orderNumber: string | null };
};

type SubscriptionRow = {
  id: string;
  status: SubscriptionStatus;
  email: string;
  user_id: string;
  every_weeks: number;
  discount_percent: number;
  next_renewal_at: string;
  deliveries: number;
  failing_since: string | null;
  created_at: string;
  cancelled_at: string | null;
  cancel_reason: string | null;
};

const ROW_COLUMNS = [
  's.id',
  's.status',
  's.email',
  's.user_id',
  's.every_weeks',
  's.discount_percent',
  's.next_renewal_at',
  's.deliveries',
  's.failing_since',
  's.created_at',
  's.cancelled_at',
  's.cancel_reason',
] as const;

/** The items of these subscriptions, in one statement, by subscription. */
async function itemsOf(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, AdminSubscriptionItem[]>> {
  const byId = new Map<string, AdminSubscriptionItem[]>();
  if (ids.length === 0) return byId;
  const rows = await db
    .selectFrom('subscription_items as i')
    .leftJoin('product_variants as v', 'v.id', 'i.variant_id')
    .leftJoin('products as p', 'p.id', 'i.product_id')
    .select(['i.subscription_id', 'i.product_id', 'i.variant_id', 'i.quantity', 'p.name', 'v.sku', 'v.option1', 'v.option2', 'v.option3'])
    .where('i.subscription_id', 'in', [...ids])
    .orderBy('i.subscription_id')
    .orderBy('i.variant_id')
    .execute();
  for (const r of rows) {
    const list = byId.get(r.subscription_id) ?? [];
    list.push({
      productId: r.product_id,
      variantId: r.variant_id,
      name: lineTitle(r.name ?? 'A product no longer sold', [r.option1, r.option2, r.option3].filter(Boolean).join(', ')),
      quantity: r.quantity,
      sku: r.sku,
    });
    byId.set(r.subscription_id, list);
  }
  return byId;
}

function toRow(s: SubscriptionRow, items: AdminSubscriptionItem[]): AdminSubscriptionRow {
  return {
    id: s.id,
    status: s.status,
    email: s.email,
    userId: s.user_id,
    everyWeeks: s.every_weeks,
    discountPercent: s.discount_percent,
    terms: subscriptionLineText(s.every_weeks, s.discount_percent),
    items,
    nextRenewalAt: s.status === 'cancelled' ? null : s.next_renewal_at,
    deliveries: Number(s.deliveries),
    failingSince: s.failing_since,
    createdAt: s.created_at,
    cancelledAt: s.cancelled_at,
    cancelReason: s.cancel_reason,
  };
}

/**
 * A page of subscriptions, newest first, with the count of each status for the chips. Three
 * statements whatever the number of subscriptions: the page's rows and the grouped count side by
 * side (the total is the count's own sum, or its status's), then the page's items in one `in`.
 * The search `q` matches the customer's e-mail or the subscription's id (contains, any case), or
 * a product name or variant SKU of its items.
 */
export async function listAdminSubscriptions(db: Kysely<Database>, q: AdminSubscriptionListQuery): Promise<AdminSubscriptionPage> {
  let searched = db.selectFrom('subscriptions as s');
  if (q.q) {
    const text = q.q;
    searched = searched.where((eb) =>
      eb.or([
        containsText('s.email', text),
        containsText('s.id', text),
        eb(
          's.id',
          'in',
          eb
            .selectFrom('subscription_items as i')
            .innerJoin('products as p', 'p.id', 'i.product_id')
            .leftJoin('product_variants as v', 'v.id', 'i.variant_id')
            .select('i.subscription_id')
            .where((inner) => inner.or([containsText('p.name', text), containsText('v.sku', text)])),
        ),
      ]),
    );
  }
  const listed = q.status ? searched.where('s.status', '=', q.status) : searched;
  const counts = searched
    .select(['s.status', sql<number | string>`count(*)`.as('n')])
    .groupBy('s.status')
    .execute()
    .then((rows) => {
      const c: AdminSubscriptionCounts = { active: 0, paused: 0, payment_failing: 0, cancelled: 0 };
      for (const r of rows) c[r.status] = Number(r.n);
      return c;
    });
  const rows = listed
    .select(ROW_COLUMNS)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute();
  const total = counts.then((c) => ({ n: q.status ? c[q.status] : Object.values(c).reduce((a, b) => a + b, 0) }));
  const page = await pageOf(rows, total, q, (r) => r);
  const items = await itemsOf(
    db,
    page.items.map((r) => r.id),
  );
  return {
    subscriptions: page.items.map((r) => toRow(r, items.get(r.id) ?? [])),
    total: page.total,
    page: page.page,
    pageSize: page.pageSize,
    totalPages: page.totalPages,
    counts: await counts,
  };
}

/** One subscription with its items, its last cycles (newest first) and the terms the customer agreed to; 404 when unknown. */
export async function adminSubscriptionDetail(db: Kysely<Database>, id: string): Promise<AdminSubscriptionDetail> {
  const sub = await db
    .selectFrom('subscriptions as s')
    .leftJoin('orders as o', 'o.id', 's.first_order_id')
    .select([...ROW_COLUMNS, 's.consent_text', 's.consent_at', 's.first_order_id', 'o.order_number as first_order_number'])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!sub) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
  const [items, cycles, events, extras, skipped, [view]] = await Promise.all([
    itemsOf(db, [sub.id]),
    db
      .selectFrom('subscription_cycles as c')
      .leftJoin('orders as o', 'o.id', 'c.order_id')
      .select(['c.cycle', 'c.due_at', 'c.status', 'c.attempts', 'c.message', 'c.order_id', 'c.amount_cents', 'o.order_number'])
      .where('c.subscription_id', '=', sub.id)
      .orderBy('c.cycle', 'desc')
      .limit(ADMIN_CYCLES_SHOWN)
      .execute(),
    listSubscriptionEvents(db, sub.id, { limit: ADMIN_CYCLES_SHOWN }),
    db
      .selectFrom('subscription_extras')
      .select(['variant_id', 'quantity'])
      .where('subscription_id', '=', sub.id)
      .orderBy('created_at')
      .execute(),
    db.selectFrom('subscription_items').select('variant_id').where('subscription_id', '=', sub.id).where('skip_next', '=', 1).execute(),
    subscriptionViews(db, { id: sub.id }),
  ]);
  return {
    ...toRow(sub, items.get(sub.id) ?? []),
    cycles: cycles.map((c) => ({
      cycle: Number(c.cycle),
      dueAt: c.due_at,
      status: c.status,
      attempts: Number(c.attempts),
      message: c.message,
      orderId: c.order_id,
      orderNumber: c.order_number,
      amountCents: c.amount_cents === null ? null : Number(c.amount_cents),
    })),
    events,
    extras:
      view?.extras ?? extras.map((e) => ({ variantId: e.variant_id, name: e.variant_id, quantity: e.quantity, unitPriceCents: null })),
    address: view?.address ?? null,
    skippedNext: skipped.map((r) => r.variant_id),
    card: view?.card ?? null,
    consentText: sub.consent_text,
    consentAt: sub.consent_at,
    firstOrder: { id: sub.first_order_id, orderNumber: sub.first_order_number },
  };
}

/**
 * The owner cancels for the customer: `cancelSubscription`'s rules (at once, open cycles ended,
 * an unpaid renewal order cancelled; 409 when already cancelled), the e-mail only when asked, and
 * an audit row naming the subscription and whether the customer was told, written in the
 * cancellation's own transaction.
 */
export async function cancelSubscriptionForCustomer(
  db: Kysely<Database>,
  dialect: Dialect,
  id: string,
  input: AdminCancelSubscriptionInput,
  by: AuditBy,
  actor: OrderEventActor,
  now = new Date(),
): Promise<AdminSubscriptionDetail> {
  await cancelSubscription(db, dialect, id, {
    reason: input.reason ?? null,
    now,
    actor,
    email: input.notifyCustomer,
    audit: { by, details: { subscriptionId: id, notified: input.notifyCustomer, withReason: Boolean(input.reason) } },
  });
  return adminSubscriptionDetail(db, id);
}
