import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { requireUser } from '../http/auth.js';
import { access } from '../http/access.js';
import { SAVED_CART_MESSAGES, SavedCartInput, type SavedCartView } from '../../shared/schemas/saved-cart.js';
import { getSavedCart, mergeIntoSavedCart, saveCart, type SavedCart } from './saved-carts.js';

function view(cart: SavedCart, readOnly: boolean): SavedCartView {
  return { lines: cart.lines, couponCode: cart.couponCode, updatedAt: cart.updatedAt, readOnly };
}

/**
 * While an admin acts as a customer, the customer's saved cart is read-only (decision 0030): the
 * admin sees it, and nothing they put in the cart while helping is saved over the customer's own.
 */
function refuseWhileImpersonating(req: FastifyRequest): void {
  if (req.session?.impersonator) throw new HttpError(403, SAVED_CART_MESSAGES.impersonating);
}

/** The signed-in customer's own cart (account surface: a session is required; only one's own). */
export async function registerSavedCartRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  app.get('/api/account/cart', access.signedIn, async (req) => {
    const user = requireUser(req);
    return view(await getSavedCart(db, user.id), Boolean(req.session?.impersonator));
  });

  app.put('/api/account/cart', access.signedIn, async (req) => {
    const user = requireUser(req);
    const input = parseInput(SavedCartInput, req.body);
    refuseWhileImpersonating(req);
    return view(await saveCart(db, user.id, input), false);
  });

  app.post('/api/account/cart/merge', access.signedIn, async (req) => {
    const user = requireUser(req);
    const input = parseInput(SavedCartInput, req.body);
    refuseWhileImpersonating(req);
    return view(await mergeIntoSavedCart(db, user.id, input), false);
  });
}
