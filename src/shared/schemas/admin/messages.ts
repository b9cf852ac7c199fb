/** Admin texts of spec section 8, shared by the back office and the server. */

/** The largest image the shop takes, in pixels: a side, and the whole picture (megapixels). */
export const IMAGE_MAX_SIDE = 8000;
export const IMAGE_MAX_MEGAPIXELS = 25;
/** The largest image file the shop takes: the upload route's limit, checked by the browser before it sends one. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const ADMIN_MESSAGES = {
  orderNotFound: 'Order not found',
  couponNotFound: 'Coupon not found',
  couponUntilBeforeFrom: 'Valid until must be after valid from',
  couponCodeChars: 'Code can only contain letters, numbers, and dashes',
  productNotFound: 'Product not found',
  categoryNotFound: 'Category not found',
  shippingNotFound: 'Shipping option not found',
  userNotFound: 'User not found',
  categoryInUse: (n: number) =>
    `This category still holds ${n} product${n === 1 ? '' : 's'}. Move or delete them before deleting the category.`,
  categoryExists: 'A category with this ID already exists',
  couponCodeExists: 'A coupon with this code already exists',
  /** A coupon's free variant that is not one of its free product's variants. */
  freeVariantNotOfProduct: "The free variant must be one of the free product's variants: choose the product again",
  freeVariantWithoutProduct: 'Choose the free product before choosing which of its variants is given',
  /** Toast title and text when a coupon action asks for Stripe but no Stripe key is configured. */
  stripeFeatureDisabled: 'Feature Disabled',
  stripeCouponsDisabled: 'Stripe integration disabled in local mode',
  imageType: 'Images must be PNG, JPEG or WebP',
  imageSize: `Images must be ${IMAGE_MAX_BYTES / (1024 * 1024)} MB or smaller`,
  /** An image whose pixels would take a browser's memory (and seconds) to draw, however small its file. */
  imageDimensions: (width: number, height: number) =>
    `This image is ${width} × ${height} pixels. Images can be at most ${IMAGE_MAX_SIDE} pixels wide or high and ${IMAGE_MAX_MEGAPIXELS} megapixels in all (e.g. 6000 × 4000): make it smaller and upload it again.`,
  imageUnreadable: 'This image file is damaged or incomplete. Save it again as PNG, JPEG or WebP and upload it again.',
  uploadCutOff: 'The upload was cut off before it finished. Please try again.',
  /** The file storage (a bucket, decision 0062) does not answer: nothing was stored. */
  imageStorageDown: 'Images cannot be stored right now: the file storage does not answer. Try again in a minute.',
  /** The file storage answers but refuses the shop: its settings need the owner. */
  imageStorageRefused:
    'Images cannot be stored right now: the file storage refuses the shop. Check the bucket name and access keys in the shop’s settings (S3_BUCKET, S3_ACCESS_KEY_ID).',
  requiredFields: 'Please fill in all required fields',
  ownRole: 'You cannot remove your own admin role',
  lastAdmin: 'The last admin cannot be demoted',
  /** DELETE of a paid or refunded order (a record of money stays on the books). */
  paidOrderNotDeletable:
    'This order was paid, so it stays on the books and cannot be deleted. Cancel it (its units return to stock) or refund it instead.',
  /** Shipping only what is paid (label purchase and "mark shipped"). */
  unpaidNotShippable: 'This order is not paid yet: it cannot be marked shipped or given a label until the payment arrives.',
  labelExists: 'This order already has a shipping label. Void it before buying another.',
  labelBusy: 'A label for this order is being bought or voided right now. Wait a moment and reload the order.',
  noLabel: 'This order has no shipping label to void.',
  itemTotalFixed: 'The total of an order with items comes from its items and cannot be edited.',
  totalRequired: 'Total amount is required',
} as const;
