// Who did something, as the order timeline, the stock ledger and the audit log name them. Here,
// beneath the modules, so a module's routes can name the person behind a request without
// importing the orders module (which imports them back): decision 0051.

/**
 * Who did it: an account (its id and e-mail as they were), or the shop itself, or the provider.
 * While an admin acts as a customer, the admin is the actor and `actingAsUserId` the customer.
 */
export type OrderEventActor = { userId: string | null; label: string; actingAsUserId?: string | null };

export const SYSTEM_ACTOR: OrderEventActor = { userId: null, label: 'system' };
export const CUSTOMER_ACTOR: OrderEventActor = { userId: null, label: 'customer' };
export const STRIPE_ACTOR: OrderEventActor = { userId: null, label: 'Stripe' };

/** An account as the actor: its id and its e-mail as it reads now. */
export function accountActor(user: { id: string; email: string } | null | undefined): OrderEventActor {
  return user ? { userId: user.id, label: user.email } : SYSTEM_ACTOR;
}

type SessionPeople = { user: { id: string; email: string }; impersonator: { id: string; email: string } | null };

/**
 * The person behind a request's session: the signed-in account, or, while an admin acts as a
 * customer, the admin, named with whom they acted as ("admin@… as customer@…").
 */
export function sessionActor(session: SessionPeople | null | undefined): OrderEventActor {
  if (!session) return SYSTEM_ACTOR;
  const { user, impersonator } = session;
  if (!impersonator) return accountActor(user);
  return { userId: impersonator.id, label: `${impersonator.email} as ${user.email}`, actingAsUserId: user.id };
}
