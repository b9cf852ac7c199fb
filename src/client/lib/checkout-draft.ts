/**
 * The checkout form as the shopper left it, kept per tab (sessionStorage) so a Cancel on the card
 * page, Back, or a trip to the cart does not wipe it. Only the contact and address fields and the
 * shipping pick are kept: never card data (the card page is the provider's), never the bot trap.
 * Cleared once the order is paid.
 */
const DRAFT_KEY = 'checkout-draft';

const DRAFT_FIELDS = ['firstName', 'lastName', 'email', 'address', 'city', 'state', 'zip'] as const;
export type CheckoutDraftField = (typeof DRAFT_FIELDS)[number];
export type CheckoutDraft = Partial<Record<CheckoutDraftField, string>> & { shippingOptionId?: string | null };

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage refused (privacy settings): the form simply is not kept.
    return null;
  }
}

/** The tab's draft; unknown keys and non-text values are dropped, a damaged one is ignored. */
export function readCheckoutDraft(): CheckoutDraft {
  const raw = storage()?.getItem(DRAFT_KEY);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const o = parsed as Record<string, unknown>;
    const draft: CheckoutDraft = {};
    for (const f of DRAFT_FIELDS) {
      const v = o[f];
      if (typeof v === 'string' && v.length <= 300) draft[f] = v;
    }
    if (typeof o.shippingOptionId === 'string' && o.shippingOptionId.length <= 100) draft.shippingOptionId = o.shippingOptionId;
    return draft;
  } catch {
    return {};
  }
}

/** Merges `patch` into the tab's draft (only the kept fields are written). */
export function writeCheckoutDraft(patch: Record<string, unknown>): void {
  const s = storage();
  if (!s) return;
  const next: CheckoutDraft = readCheckoutDraft();
  for (const f of DRAFT_FIELDS) {
    const v = patch[f];
    if (typeof v === 'string') next[f] = v;
  }
  if ('shippingOptionId' in patch) {
    const id = patch.shippingOptionId;
    next.shippingOptionId = typeof id === 'string' ? id : null;
  }
  try {
    s.setItem(DRAFT_KEY, JSON.stringify(next));
  } catch {
    // Full or refused: nothing kept, nothing broken.
  }
}

export function clearCheckoutDraft(): void {
  try {
    storage()?.removeItem(DRAFT_KEY);
  } catch {
    // Nothing to clear.
  }
}
