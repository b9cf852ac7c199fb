import type { Insertable } from 'kysely';
import type { UsersTable, UserRow } from '../db/schema.js';
import type { Address, SessionResponse, SessionUser } from '../../shared/schemas/auth.js';
import type { LoadedSession } from './sessions.js';
import { parseJson } from '../lib/json.js';

export function toSessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    phone: row.phone,
    role: row.role,
    emailVerified: Boolean(row.email_verified),
    loyaltyPoints: row.loyalty_points,
    totalPointsEarned: row.total_points_earned,
    createdAt: row.created_at,
    shippingAddress: parseJson<Address | null>(row.shipping_address, null),
    billingAddress: parseJson<Address | null>(row.billing_address, null),
  };
}

/** What GET /api/session answers, and what pages carry as their first data: the person, and who acts as them. */
export function toSessionResponse(session: LoadedSession | null): SessionResponse {
  return {
    user: session ? toSessionUser(session.user) : null,
    impersonatorEmail: session?.impersonator?.email ?? null,
  };
}

/** A new customer account's row (sign-up, a subscribing guest's account): no phone, no address, no points yet. */
export function newCustomerRow(o: {
  id: string;
  email: string;
  fullName: string;
  passwordHash: string;
  at: string;
}): Insertable<UsersTable> {
  return {
    id: o.id,
    email: o.email,
    full_name: o.fullName,
    phone: null,
    role: 'client',
    password_hash: o.passwordHash,
    email_verified: 0,
    loyalty_points: 0,
    total_points_earned: 0,
    shipping_address: null,
    billing_address: null,
    created_at: o.at,
    updated_at: o.at,
  };
}
