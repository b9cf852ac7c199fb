import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PricedCart } from '../../cart/service.js';
import { HttpError } from '../../http/errors.js';
import { findUserIdByEmail } from '../../accounts/subscriber-accounts.js';
import { SUBSCRIPTION_MESSAGES } from '../../../shared/subscription-words.js';
import type { CheckoutContext, CheckoutInput } from './types.js';

/** Whether the cart asks for a subscription (a line with an interval). */
export const hasSubscriptionLines = (input: Pick<CheckoutInput, 'items'>): boolean => input.items.some((l) => l.everyWeeks !== undefined);

/**
 * What a cart with subscription lines needs before anything is locked or priced (issue [4/8]): the
 * terms ticked (400), and a guest's e-mail without an account (409: that shopper signs in, so the
 * subscription is theirs; a new e-mail gets an account made at payment). Nothing for other carts.
 */
export async function checkSubscriber(db: Kysely<Database>, input: CheckoutInput, ctx: Pick<CheckoutContext, 'userId'>): Promise<void> {
  if (!hasSubscriptionLines(input)) return;
  if (input.acceptSubscriptionTerms !== true) throw new HttpError(400, SUBSCRIPTION_MESSAGES.consentMissing);
  if (ctx.userId === null && (await findUserIdByEmail(db, input.customerEmail)))
    throw new HttpError(409, SUBSCRIPTION_MESSAGES.accountExists);
}

/**
 * Each subscription line as priced under the checkout's locks: a plan switched off (or gone) since
 * the cart was filled is 409, an interval the plan does not offer 400; the line's own message either way.
 */
export function checkSubscriptionLines(priced: Pick<PricedCart, 'lines'>): void {
  const refused = priced.lines.filter((l) => l.subscriptionError);
  const off = refused.find((l) => l.subscriptionError === SUBSCRIPTION_MESSAGES.planOff);
  if (off) throw new HttpError(409, SUBSCRIPTION_MESSAGES.planOff);
  if (refused.length) throw new HttpError(400, refused[0]!.subscriptionError!);
}
