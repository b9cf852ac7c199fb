/**
 * What the shop says about tracking and labels, in one place for the back office, the customer's
 * pages and the tests. A tracking number is only ever a carrier's number from a bought label; the
 * specification's brand code is the order's reference (shared/schemas/orders.ts orderReferenceOf).
 */
export const TRACKING_TEXTS = {
  orderReference: 'Order reference',
  trackingNumber: 'Tracking number',
  /** The owner's shipping panel before any label. */
  noLabelYet: 'No tracking number yet: one comes with a shipping label.',
  /** Marked shipped by hand: no carrier number exists. */
  shippedWithoutLabel: 'Marked shipped without a label: there is no carrier tracking number.',
  /** The edit form, while the address differs from the one the label was bought for. */
  addressChangeBeforeSave:
    'This order already has a shipping label for the old address. After saving, void the label and buy a new one, or the parcel goes to the old address.',
  /** The order, once the address was changed after its label was bought. */
  addressChangedAfterLabel:
    'The shipping address changed after this label was bought: the label still shows the old address. Void the label and buy a new one.',
} as const;
