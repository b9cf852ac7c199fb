import type { UserRow } from '../db/schema.js';
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
