/**
 * The order number: the last 8 characters of the id, upper-cased as on the receipt (the spec's
 * "uppercase on the receipt"). Every place a customer reads it (pages, receipts, e-mails, the
 * packing slip) shows this one spelling, through `orderNumberLabel`. The spec's other forms stay
 * where it names them: the brand code (`orderReferenceOf`) and the reorder toast's last 6.
 */
export function orderNumberOf(id: string): string {
  return id.slice(-8).toUpperCase();
}

/** The order number as a customer reads it: `#AX3N0EWV`. */
export function orderNumberLabel(id: string): string {
  return `#${orderNumberOf(id)}`;
}

/**
 * Paid and not yet shipped: the owner's "To ship" (server/orders/money-taken.ts `toShipSql`, the
 * same rule), which the customer reads as "Paid, being prepared" rather than the spec's
 * `completed`, which sounds done.
 */
export function isToShipOrder(o: { status: string; paymentStatus: string }): boolean {
  return (
    (o.status === 'completed' || o.status === 'processing') && (o.paymentStatus === 'paid' || o.paymentStatus === 'partially_refunded')
  );
}

/** What a customer reads for a paid order not yet shipped (badge, counts, e-mail). */
export const BEING_PREPARED_LABEL = 'Paid, being prepared';
