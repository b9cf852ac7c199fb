/**
 * When a cart line short only because other shoppers' checkouts keep units can be paid for: the
 * moment the holds ending first have given back enough. `onHand` is the variant's level, `wanted`
 * the units the cart asks of it (lines and gift together), `holds` the other shoppers' live firm
 * reservations of it (units and when each may come back). Null when the holds are not what keeps
 * the line short (it is payable now, or it wants more than the shelf holds even with every hold back:
 * then the cart lowers it to the shelf first and asks again).
 */
export function heldUntil(onHand: number, wanted: number, holds: readonly { quantity: number; firmUntil: string }[]): string | null {
  let stillHeld = holds.reduce((n, h) => n + h.quantity, 0);
  if (wanted > onHand || onHand - stillHeld >= wanted) return null;
  for (const h of [...holds].sort((a, b) => (a.firmUntil < b.firmUntil ? -1 : a.firmUntil > b.firmUntil ? 1 : 0))) {
    stillHeld -= h.quantity;
    if (onHand - stillHeld >= wanted) return h.firmUntil;
  }
  return null;
}
