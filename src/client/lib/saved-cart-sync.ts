import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { cartFromQuote, type PlainCart, type PlainCartLine, type StoredCart } from '../../shared/stored-cart.js';
import { getCart, replaceCart, subscribeToCart } from './cart-store.js';
import { getCartQuoteQueryOptions } from './get-cart-quote.js';
import { useSession } from './get-session.js';
import { useHydrated } from './use-hydrated.js';

/**
 * A signed-in customer's cart is kept by the server (decision 0030): on sign-in this browser's cart
 * (the guest's) is merged into the account's, the result becomes the cart here; changes are saved
 * a moment after the last one; on load the account's cart is taken when another device changed it
 * since this browser last saved. While an admin acts as a customer nothing is saved or merged: the
 * customer's saved cart is read-only then.
 *
 * Plain `fetch` and hand-checked answers: this runs on every page, and the storefront's first load
 * has no room for zod.
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
    lines: cart.items.map((l) => ({ productId: l.product.id, quantity: l.quantity, size: l.size, color: l.color })),
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
        typeof l.productId === 'string' && Number.isInteger(l.quantity) && typeof l.size === 'string' && typeof l.color === 'string',
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

/** The account's cart becomes this browser's, with names and prices from the server's quote. */
async function adopt(queryClient: QueryClient, userId: string, answer: Answer): Promise<void> {
  const contents = { lines: answer.lines, couponCode: answer.couponCode };
  const quote = answer.lines.length
    ? await queryClient.fetchQuery({ ...getCartQuoteQueryOptions({ ...contents, shippingOptionId: null }), retry: false })
    : undefined;
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

/** Signed out: this browser's cart no longer belongs to an account. */
export function forgetCartAccount(): void {
  writeSync(null);
}

/** Mounted once (root layout): keeps a signed-in customer's cart and the account's in step. */
export function useSavedCartSync(): void {
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const { user, impersonatorEmail } = useSession();
  const userId = hydrated && user && !impersonatorEmail ? user.id : null;

  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    let ready = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    void (async () => {
      const sync = readSync();
      try {
        if (sync?.userId !== userId) {
          // Just signed in here: the guest's cart joins the account's.
          await adopt(queryClient, userId, await call('POST', '/api/account/cart/merge', plainOf(getCart())));
        } else {
          const kept = await call('GET', '/api/account/cart');
          // Another device saved since this browser did: its cart is the customer's latest.
          if (kept.updatedAt !== sync.updatedAt && !cancelled) await adopt(queryClient, userId, kept);
        }
      } catch {
        // Offline or the server is away: the cart here stays, and is saved on the next change.
      }
      ready = true;
    })();

    const unsubscribe = subscribeToCart(() => {
      if (!ready) return;
      clearTimeout(timer);
      timer = setTimeout(() => void saveCartNow(userId), SAVE_DEBOUNCE_MS);
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
      unsubscribe();
    };
  }, [userId, queryClient]);
}
