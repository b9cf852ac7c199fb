import type { PlainCart, PlainCartLine } from '../../shared/cart-merge.js';
import { cartFromQuote, type StoredCart } from '../../shared/stored-cart.js';
import { getCart, replaceCart, subscribeToCart } from './cart-store.js';

/**
 * A signed-in customer's cart is kept by the server (decision 0030): on sign-in this browser's cart
 * (the guest's) is merged into the account's, the result becomes the cart here; changes are saved
 * a moment after the last one; on load the account's cart is taken when another device changed it
 * since this browser last saved. While an admin acts as a customer nothing is saved or merged: the
 * customer's saved cart is read-only then.
 *
 * Loaded only once a customer is signed in (use-saved-cart-sync.ts), with plain `fetch` and
 * hand-checked answers: the storefront's first load has no room for it, nor for zod.
 */
const SAVE_DEBOUNCE_MS = 800;
/** localStorage: which account this browser's cart belongs to, and what was last saved for it. */
const SYNC_KEY = 'cartAccount';

type SyncState = { userId: string; saved: string; updatedAt: string | null };

function readSync(): SyncState | null {
  try {
    const v: unknown = JSON.parse(window.localStorage.getItem(SYNC_KEY) ?? 'null');
    if (v && typeof v === 'object' && typeof (v as SyncState).userId === 'string' && typeof (v as SyncState).saved === 'string') {
      const u = (v as SyncState).updatedAt;
      return { userId: (v as SyncState).userId, saved: (v as SyncState).saved, updatedAt: typeof u === 'string' ? u : null };
    }
  } catch {
    // Corrupt or disabled: as if this browser had never saved.
  }
  return null;
}

function writeSync(state: SyncState | null): void {
  try {
    if (state) window.localStorage.setItem(SYNC_KEY, JSON.stringify(state));
    else window.localStorage.removeItem(SYNC_KEY);
  } catch {
    // Storage disabled: the cart is then merged again on the next load, which adds nothing twice
    // only if the account's cart was emptied meanwhile; acceptable for a browser that keeps nothing.
  }
}

function plainOf(cart: StoredCart): PlainCart {
  return {
    lines: cart.items.map((l) => ({
      productId: l.product.id,
      ...(l.product.variantId ? { variantId: l.product.variantId } : {}),
      quantity: l.quantity,
      size: l.size,
      color: l.color,
      ...(l.everyWeeks !== undefined ? { everyWeeks: l.everyWeeks } : {}),
    })),
    couponCode: cart.items.length ? cart.appliedCouponCode : null,
  };
}

const keyOf = (cart: PlainCart) => JSON.stringify(cart);

type Answer = PlainCart & { updatedAt: string | null; readOnly: boolean };

function isAnswer(v: unknown): v is Answer {
  if (!v || typeof v !== 'object') return false;
  const a = v as Answer;
  return (
    Array.isArray(a.lines) &&
    a.lines.every(
      (l: PlainCartLine) =>
        typeof l.productId === 'string' &&
        (l.variantId === undefined || typeof l.variantId === 'string') &&
        Number.isInteger(l.quantity) &&
        typeof l.size === 'string' &&
        typeof l.color === 'string' &&
        (l.everyWeeks === undefined || Number.isInteger(l.everyWeeks)),
    ) &&
    (a.couponCode === null || typeof a.couponCode === 'string')
  );
}

async function call(method: 'GET' | 'PUT' | 'POST', path: string, body?: PlainCart): Promise<Answer> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`saved cart: ${res.status}`);
  const json: unknown = await res.json();
  if (!isAnswer(json)) throw new Error('saved cart: unexpected answer');
  return json;
}

type Pricing = Parameters<typeof cartFromQuote>[1];

/**
 * The server's quote for these contents (names, prices, pictures, the coupon's discount and gift).
 * Asked with plain `fetch` (the quote's query module would change how the storefront's first load is
 * split into chunks); an answer without lines is treated as none: the cart page asks again anyway.
 */
async function priceOf(contents: PlainCart): Promise<Pricing> {
  try {
    const res = await fetch('/api/cart/quote', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...contents, shippingOptionId: null }),
    });
    const json: unknown = res.ok ? await res.json() : null;
    return json && typeof json === 'object' && Array.isArray((json as { lines?: unknown }).lines) ? (json as Pricing) : undefined;
  } catch {
    return undefined;
  }
}

/** The account's cart becomes this browser's, with names and prices from the server's quote. */
async function adopt(userId: string, answer: Answer): Promise<void> {
  const contents = { lines: answer.lines, couponCode: answer.couponCode };
  const quote = answer.lines.length ? await priceOf(contents) : undefined;
  const adopted = cartFromQuote(contents, quote);
  writeSync({ userId, saved: keyOf(plainOf(adopted)), updatedAt: answer.updatedAt });
  replaceCart(adopted);
}

/** Saves this browser's cart to the signed-in account now; resolves false when it could not. */
export async function saveCartNow(userId: string): Promise<boolean> {
  const plain = plainOf(getCart());
  const sync = readSync();
  if (sync?.userId === userId && sync.saved === keyOf(plain)) return true;
  try {
    const answer = await call('PUT', '/api/account/cart', plain);
    writeSync({ userId, saved: keyOf(plain), updatedAt: answer.updatedAt });
    return true;
  } catch {
    return false;
  }
}

/** Asked before signing out would throw away a cart the account could not keep (decision 0030). */
export const SIGN_OUT_MESSAGES = {
  unsavedCart: 'Your cart could not be saved to your account, so signing out will empty it. Sign out anyway?',
} as const;

/**
 * Before signing out (`userId`: the customer, or null for nobody to save for, e.g. while
 * impersonating): saves the cart to the account; if it could not be saved and holds something,
 * asks whether to sign out anyway. True: go on.
 */
export async function readyToSignOut(userId: string | null): Promise<boolean> {
  if (!userId || (await saveCartNow(userId)) || getCart().items.length === 0) return true;
  return window.confirm(SIGN_OUT_MESSAGES.unsavedCart);
}

/** Signed out: this browser's cart no longer belongs to an account. */
export function forgetCartAccount(): void {
  writeSync(null);
}

/** Keeps the signed-in customer's cart and the account's in step until the returned stop is called. */
export function startSavedCartSync(userId: string): () => void {
  let cancelled = false;
  let ready = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  void (async () => {
    const sync = readSync();
    try {
      if (sync?.userId !== userId) {
        // Just signed in here: the guest's cart joins the account's.
        await adopt(userId, await call('POST', '/api/account/cart/merge', plainOf(getCart())));
      } else {
        const kept = await call('GET', '/api/account/cart');
        // Another device saved since this browser did: its cart is the customer's latest.
        if (kept.updatedAt !== sync.updatedAt && !cancelled) await adopt(userId, kept);
      }
    } catch {
      // Offline or the server is away: the cart here stays, and is saved on the next change.
    }
    ready = true;
  })();

  const unsubscribe = subscribeToCart(() => {
    if (!ready || cancelled) return;
    clearTimeout(timer);
    timer = setTimeout(() => void saveCartNow(userId), SAVE_DEBOUNCE_MS);
  });
  return () => {
    cancelled = true;
    clearTimeout(timer);
    unsubscribe();
  };
}
