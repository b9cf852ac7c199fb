import type { Generated, Selectable } from 'kysely';
import type { OrderOrigin } from '../../shared/schemas/orders.js';

/**
 * Column conventions, identical on SQLite and PostgreSQL:
 * booleans are integers 0/1, timestamps are ISO-8601 UTC text (sortable), money is integer cents,
 * lists and nested objects are JSON text.
 */
export interface UsersTable {
  id: string;
  email: string;
  full_name: string;
  phone: string | null;
  role: 'client' | 'admin';
  password_hash: string;
  email_verified: number;
  loyalty_points: number;
  total_points_earned: number;
  shipping_address: string | null;
  billing_address: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  acting_as_user_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** E-mail verification links (migration 0025): hashed, single-use, for the address they were sent to. */
export interface EmailVerificationTokensTable {
  token_hash: string;
  user_id: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_started_at: string;
}

/** Secrets the server made for itself (e.g. the device-cookie HMAC key), shared by every process. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

export interface CategoriesTable {
  id: string;
  name: string;
  description: string | null;
  image_url: string | null;
  sort_order: number;
  created_at: string;
}

export interface ProductsTable {
  id: string;
  name: string;
  description: string;
  /** The lowest enabled variant's price (a copy the catalogue keeps, so lists sort and filter on one row; migration 0027). */
  price_cents: number;
  /** The highest enabled variant's price when prices differ ("from $X"), else null. */
  max_price_cents: number | null;
  /** The only enabled variant's id, else null (a card adds it without opening the product). */
  sole_variant_id: string | null;
  category_id: string | null;
  images: string;
  /** JSON array of alt texts, one per image in `images` order ('' or absent: none written). */
  image_alts: Generated<string>;
  featured: number;
  /** The inventory module's copy of the product's level (the sum of its stock items), written only by it. */
  inventory: Generated<number>;
  /** The leading "N -" of the name, kept so the shop order is an index scan. */
  sort_number: number | null;
  /** The sole variant's SKU; null when the product has several variants (catalog/variants.ts keeps it). */
  sku: string | null;
  brand: string | null;
  stripe_price_id: string | null;
  weight_lbs: number | null;
  length_in: number | null;
  width_in: number | null;
  height_in: number | null;
  /** 'draft': the owner's alone, not shown or sold; 'active': in the shop (migration 0037). */
  status: Generated<'draft' | 'active'>;
  created_at: string;
  updated_at: string;
  /** Days after a one-time purchase its buyer is reminded to reorder (migration 0052); null: no reminders. */
  reorder_after_days: Generated<number | null>;
}

/** A product's option (Scent, Size…): at most three, by position 1..3 (migration 0027). */
export interface ProductOptionsTable {
  product_id: string;
  position: number;
  name: string;
  /** JSON array of the option's values, in the owner's order. */
  values: string;
}

/**
 * A version of a product that is sold: its own SKU, price and stock item (inventory). A product
 * without options has exactly one, `var_<productId>`, with option1..3 = '' (migration 0027).
 */
export interface ProductVariantsTable {
  id: string;
  product_id: string;
  position: number;
  /** The value of the option at position 1 ('' when the product has no such option). */
  option1: string;
  option2: string;
  option3: string;
  sku: string | null;
  price_cents: number;
  /** Shown struck through beside the price; never charged. */
  compare_at_cents: number | null;
  /** Null: the product's weight. */
  weight_lbs: number | null;
  /** A path from the product's images; null: the product's first image. */
  image: string | null;
  enabled: number;
  /** How much it holds, in `unit` (16 with 'oz'): its unit price is shown. Null: none (migration 0034). */
  unit_quantity: number | null;
  unit: string | null;
  created_at: string;
  updated_at: string;
}

export interface CouponsTable {
  id: string;
  code: string;
  description: string | null;
  discount_type: 'percentage' | 'fixed';
  /** Percent (0-100) for percentage coupons, cents for fixed ones. */
  discount_value: number;
  min_order_cents: number | null;
  max_uses: number | null;
  current_uses: number;
  valid_from: string;
  valid_until: string | null;
  is_active: number;
  free_product_id: string | null;
  /** The gift's variant; null: the free product's first enabled variant with a unit to give. */
  free_variant_id: string | null;
  stripe_coupon_id: string | null;
  /** Set on personal loyalty-reward coupons. */
  owner_user_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface CouponRedemptionsTable {
  id: string;
  coupon_id: string;
  user_id: string | null;
  order_id: string;
  device_id: string | null;
  /** The order's e-mail as one-per-customer coupons compare it (shared/coupons.ts normalizeCouponEmail). */
  email_normalized: string | null;
  created_at: string;
}

export interface ShippingOptionsTable {
  id: string;
  name: string;
  description: string | null;
  price_cents: number;
  estimated_days: string;
  enabled: number;
  minimum_order_cents: number | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

/** How an order was made (migration 0038); a subscription's renewal will be one more. */
export type { OrderOrigin };

export interface OrdersTable {
  id: string;
  order_number: string;
  user_id: string | null;
  email: string | null;
  status: 'pending' | 'processing' | 'shipped' | 'delivered' | 'cancelled' | 'completed';
  payment_status: 'unpaid' | 'paid' | 'failed' | 'expired' | 'refunded';
  /** How the money came ('test', 'stripe', 'cash', …); null while an order the owner entered is unpaid. */
  payment_provider: string | null;
  /** How the order was made (migration 0038): the shopper's checkout or the owner's hand; never changes. */
  origin: Generated<OrderOrigin>;
  payment_session_id: string | null;
  shipping_address: string | null;
  billing_address: string | null;
  subtotal_cents: number;
  discount_cents: number;
  shipping_cents: number;
  tax_cents: number;
  total_cents: number;
  coupon_code: string | null;
  shipping_option_id: string | null;
  shipstation_data: string | null;
  shipstation_tracking_number: string | null;
  guest_token_hash: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  /** Set when a payment arrived for units no longer in stock (its hold had lapsed): what was short, for the owner. */
  stock_shortfall: string | null;
  /** The sum of the order's succeeded refunds (migration 0007); the order's net is total_cents - refunded_cents. */
  refunded_cents: Generated<number>;
  /** Set while the order's units are back in stock (cancelled, or refunded with restock), so they return exactly once. */
  restocked_at: string | null;
  /** The order's one shipping label (migration 0008): 'buying' while claimed, 'bought', or null. */
  label_state: 'buying' | 'bought' | 'voiding' | null;
  label_key: string | null;
  label_claimed_at: string | null;
  /** The carrier code ShipStation answered for the order's label (migration 0012), e.g. 'usps' or 'stamps_com'; null without a label. */
  shipping_carrier: string | null;
  /** When the order shipped (its label bought, or marked shipped by the owner); null until then or once the label is voided. */
  shipped_at: string | null;
}

/** An order's current label as ShipStation gave it, to print (migration 0029; shipping-labels/service.ts). */
export interface ShippingLabelFilesTable {
  order_id: string;
  label_key: string | null;
  media_type: string;
  /** v1's `labelData`: the PDF itself, base64. */
  content_base64: string | null;
  /** v2's `label_download.pdf` (or `href`): ShipStation's download address. */
  download_url: string | null;
  /** The order's status when the label was bought: voiding the label puts it back. */
  status_before: OrdersTable['status'] | null;
  created_at: string;
}

/** The admin order search's word index (orders/search-terms.ts). */
export interface OrderSearchTermsTable {
  term: string;
  order_id: string;
}

export interface OrderItemsTable {
  id: string;
  order_id: string;
  product_id: string;
  /** The variant sold (no foreign key: the line outlives the catalogue). Null only on lines written before migration 0027 backfilled it. */
  variant_id: string | null;
  /** 'Lavender, 1 L' as it was when sold; '' for a product without options. */
  variant_label: Generated<string>;
  product_name: string;
  product_image: string | null;
  sku: string | null;
  quantity: number;
  price_cents: number;
  size: string;
  color: string;
  is_free_gift: number;
  /** A line bought as a subscription (migration 0042): its interval in weeks and the plan's discount (the price is already less it). Null: one-time. */
  every_weeks: Generated<number | null>;
  plan_discount_percent: Generated<number | null>;
}

export interface PaymentSessionsTable {
  id: string;
  order_id: string;
  provider: string;
  status: 'open' | 'complete' | 'expired';
  amount_cents: number;
  url: string;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
  /** 1 while the session was ended here but its provider's page may still take money (migration 0030): the payments worker closes it there. */
  close_due: Generated<number>;
}

/** Why a payment could not be taken for its order (payments/stray-payments.ts). */
export type StrayPaymentReason = 'order_paid' | 'order_cancelled' | 'session_ended' | 'session_replaced' | 'amount_changed';

/** A payment that arrived for a checkout or link the shop had ended (migration 0030), never deleted. */
export interface StrayPaymentsTable {
  id: string;
  order_id: string;
  /** The provider's session that took the money: one row each. */
  session_id: string;
  provider: string;
  amount_cents: number;
  /** The provider's payment (Stripe's payment intent), what its refund names. */
  payment_reference: string | null;
  reason: StrayPaymentReason;
  /** 'refunding' while the provider is asked; 'refunded'; 'failed' (the owner's to settle); 'settled' by the owner by hand. */
  status: 'refunding' | 'refunded' | 'failed' | 'settled';
  /** Which attempt at the refund (1: the automatic one; each owner's retry adds one): part of its idempotency key. */
  refund_attempt: Generated<number>;
  provider_refund_id: string | null;
  error: string | null;
  created_at: string;
  settled_at: string | null;
  /** Who settled a failed one by hand (the owner's label). */
  settled_by: string | null;
}

/** One row (id 1): how many back-office writes there have been (migration 0010). */
export interface ShopChangesTable {
  id: number;
  version: number;
}

/** The stocked unit: one per variant (src/server/inventory, migrations 0017 and 0027). */
export interface StockItemsTable {
  id: string;
  product_id: string;
  variant_id: string;
  /** The level: always the sum of the item's ledger rows (stock_movements). */
  on_hand: number;
  /** Units firm reservations keep from other shoppers now (the sum of its `counted` reservations; migration 0018). */
  reserved: Generated<number>;
  /** At or below this the shop shows "Only N left", the Products tab flags it and the owner is told. */
  low_stock_threshold: Generated<number>;
  /** Where the level stood against the threshold when last told: one e-mail per crossing. */
  alert_state: Generated<'ok' | 'low' | 'out'>;
  created_at: string;
  updated_at: string;
}

export type StockMovementKind = 'opening' | 'received' | 'counted' | 'damaged' | 'correction' | 'sold' | 'returned' | 'taken';

/** The stock ledger: every change of a level, signed. */
export interface StockMovementsTable {
  id: string;
  stock_item_id: string;
  kind: StockMovementKind;
  quantity: number;
  order_id: string | null;
  actor_user_id: string | null;
  actor_label: string;
  reference: string | null;
  note: string | null;
  created_at: string;
}

/** Units an open checkout holds: kept from others until `firm_until`, the holder's until `expires_at`. */
export interface StockReservationsTable {
  order_id: string;
  stock_item_id: string;
  product_id: string;
  variant_id: string;
  quantity: number;
  firm_until: string;
  expires_at: string;
  /** Who holds: the shopper's IP, browser (device hash) and account, for the cap and the holder's window. */
  ip: string | null;
  device_id: string | null;
  user_id: string | null;
  created_at: string;
  /** Set when the checkout ended unpaid (kept a while: the holder's window is counted from it). */
  released_at: string | null;
  /** 1 while its units are part of its item's `reserved` (firm, not ended, not paid). */
  counted: Generated<number>;
  /** 1 when it held the variant's last units (left no more than the threshold free): its firm time counts against the variant's hourly bound (decision 0042). */
  last_units: Generated<number>;
}

/** "Notify me when it's back": done once `notified_at` is set. */
export interface BackInStockRequestsTable {
  id: string;
  stock_item_id: string;
  product_id: string;
  email: string;
  created_at: string;
  notified_at: string | null;
}

/** A coupon use held by an order's open payment session, until `expires_at`. */
export interface CouponHoldsTable {
  order_id: string;
  coupon_code: string;
  expires_at: string;
  /** Who holds it, so one customer (e-mail, browser or account) cannot hold a one-per-customer coupon twice. */
  email_normalized: string | null;
  device_id: string | null;
  user_id: string | null;
}

export interface FaqsTable {
  id: string;
  question: string;
  answer: string;
  category: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface EmailTemplatesTable {
  id: string;
  name: string;
  subject: string;
  html: string;
  text: string | null;
  variables: string;
  built_in: number;
  created_at: string;
  updated_at: string;
}

export interface EmailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  html: string;
  text: string | null;
  template_id: string | null;
  status: 'queued' | 'sending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  /** The order the e-mail concerns, if any (migration 0008), for the order's timeline. */
  order_id: string | null;
  /** Where an answer goes (migration 0028): the visitor of a contact notice, the shop for a customer's e-mail. */
  reply_to: string | null;
  /** The one-click opt-out address (migration 0048), sent as `List-Unsubscribe` with `List-Unsubscribe-Post` (RFC 8058). */
  list_unsubscribe: string | null;
}

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  source: string;
  forward_status: 'stored' | 'pending' | 'forwarded' | 'failed';
  /** The owner's reading of it (migration 0036): new messages are unread. */
  state: Generated<'unread' | 'read' | 'answered'>;
  state_changed_at: Generated<string | null>;
  forward_attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuditLogTable {
  id: string;
  /** The person at the keyboard: the real admin while impersonating. */
  actor_user_id: string | null;
  /** The customer the actor was acting as (impersonating), else null (migration 0016). */
  acting_as_user_id: string | null;
  action: string;
  target_user_id: string | null;
  details: string | null;
  created_at: string;
}

/** An order's history, append-only (migration 0006; src/server/orders/events.ts). */
export interface OrderEventsTable {
  id: string;
  order_id: string;
  type: string;
  actor_user_id: string | null;
  actor_label: string;
  /** JSON: what the event carries (before/after of an edit, an amount, a tracking number, a note). */
  data: string;
  customer_visible: number;
  created_at: string;
}

/** A refund of an order (migration 0007; src/server/orders/refunds.ts), never deleted. */
export interface RefundsTable {
  id: string;
  order_id: string;
  amount_cents: number;
  /** The order's payment provider: 'stripe' or 'test'. */
  provider: string;
  provider_refund_id: string | null;
  /** 'pending' while the provider is asked; pending and succeeded refunds count against what is left to refund. */
  status: 'pending' | 'succeeded' | 'failed';
  reason: string | null;
  restock: number;
  /** The provider's message when it refused. */
  error: string | null;
  actor_user_id: string | null;
  actor_label: string;
  created_at: string;
  settled_at: string | null;
  /** JSON [{productId, quantity}]: the units the owner chose to return with this refund (null: none). */
  return_lines: string | null;
}

/** A signed-in customer's cart (migration 0024; src/server/cart/saved-carts.ts). */
export interface SavedCartsTable {
  user_id: string;
  /** JSON `[[productId, quantity, size, color, variantId?], …]`: a 4-tuple means the variant `var_<productId>`. */
  lines: string;
  coupon_code: string | null;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  email_verification_tokens: EmailVerificationTokensTable;
  rate_limits: RateLimitsTable;
  server_secrets: ServerSecretsTable;
  categories: CategoriesTable;
  products: ProductsTable;
  product_options: ProductOptionsTable;
  product_variants: ProductVariantsTable;
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
  shipping_options: ShippingOptionsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_search_terms: OrderSearchTermsTable;
  order_events: OrderEventsTable;
  refunds: RefundsTable;
  payment_sessions: PaymentSessionsTable;
  stray_payments: StrayPaymentsTable;
  stock_items: StockItemsTable;
  stock_movements: StockMovementsTable;
  stock_reservations: StockReservationsTable;
  back_in_stock_requests: BackInStockRequestsTable;
  coupon_holds: CouponHoldsTable;
  faqs: FaqsTable;
  settings: SettingsTable;
  email_templates: EmailTemplatesTable;
  email_outbox: EmailOutboxTable;
  shop_changes: ShopChangesTable;
  contact_messages: ContactMessagesTable;
  audit_log: AuditLogTable;
  saved_carts: SavedCartsTable;
  shipping_label_files: ShippingLabelFilesTable;
  subscription_plans: SubscriptionPlansTable;
  subscription_consents: SubscriptionConsentsTable;
  subscriptions: SubscriptionsTable;
  subscription_items: SubscriptionItemsTable;
  subscription_links: SubscriptionLinksTable;
  subscription_cycles: SubscriptionCyclesTable;
  subscription_events: SubscriptionEventsTable;
  subscription_extras: SubscriptionExtrasTable;
  subscription_card_updates: SubscriptionCardUpdatesTable;
  test_payment_methods: TestPaymentMethodsTable;
  test_off_session_charges: TestOffSessionChargesTable;
  subscription_price_notices: SubscriptionPriceNoticesTable;
  subscription_price_reviews: SubscriptionPriceReviewsTable;
  reviews: ReviewsTable;
  review_photos: ReviewPhotosTable;
  product_ratings: ProductRatingsTable;
  review_requests: ReviewRequestsTable;
  review_links: ReviewLinksTable;
  email_opt_outs: EmailOptOutsTable;
  marketing_consents: MarketingConsentsTable;
  checkout_recoveries: CheckoutRecoveriesTable;
  emptied_carts: EmptiedCartsTable;
  reorder_reminders: ReorderRemindersTable;
}

export type ReviewStatus = 'pending' | 'published' | 'hidden';
export type ReviewHideReason = 'spam' | 'abuse' | 'personal-data' | 'off-topic';

/** A product review (migration 0048, decision 0059): one per product and author. */
export interface ReviewsTable {
  id: string;
  product_id: string;
  /** 'user:<id>' (an account) or 'email:<lowercased address>' (a guest through a request link): unique per product. */
  author_key: string;
  user_id: string | null;
  /** Where the author is written to (never shown). */
  email: string;
  display_name: string;
  /** The paid order of this product that makes the review "Verified buyer"; null: no order (the badge is never set by hand). */
  order_id: string | null;
  /** The variant bought, as its order line names it ('Lavender, 32 oz'); '' when none or no options. */
  variant_label: Generated<string>;
  rating: number;
  title: string;
  body: string;
  status: ReviewStatus;
  hidden_reason: ReviewHideReason | null;
  hidden_note: string | null;
  hidden_at: string | null;
  hidden_by: string | null;
  photos_hidden: Generated<number>;
  photo_count: Generated<number>;
  reply_text: string | null;
  reply_at: string | null;
  reply_by: string | null;
  source: 'account' | 'link';
  /** The request e-mail whose link it came from (for the figures). */
  request_id: string | null;
  created_at: string;
  updated_at: string;
  /** Set when its author changed it after writing it ("edited"). */
  edited_at: string | null;
  /** When it was first published (the list's "newest" order); null while pending, or hidden before ever shown. */
  published_at: string | null;
}

export interface ReviewPhotosTable {
  id: string;
  review_id: string;
  position: number;
  /** '/uploads/reviews/<name>', with its smaller sizes beside it (image-variants.ts). */
  url: string;
  width: number;
  height: number;
  created_at: string;
}

/** A product's published reviews summed (migration 0048), kept in each review write's transaction. */
export interface ProductRatingsTable {
  product_id: string;
  review_count: Generated<number>;
  rating_sum: Generated<number>;
  stars_1: Generated<number>;
  stars_2: Generated<number>;
  stars_3: Generated<number>;
  stars_4: Generated<number>;
  stars_5: Generated<number>;
  updated_at: string;
}

/** The review request e-mail of an order: at most one (order_id unique). */
export interface ReviewRequestsTable {
  id: string;
  order_id: string;
  email: string;
  user_id: string | null;
  status: 'sent' | 'skipped';
  /** Why none was sent: 'cancelled', 'refunded', 'opted-out', 'nothing-to-review'. */
  skip_reason: string | null;
  created_at: string;
  /** When the first review through one of its links arrived (the figures' "led to a review"). */
  first_review_at: string | null;
}

/** One signed link of a request: an order and a product, used once to write a review. */
export interface ReviewLinksTable {
  /** sha256 of the token (the token itself is only in the e-mail). */
  token_hash: string;
  request_id: string;
  order_id: string;
  product_id: string;
  variant_label: Generated<string>;
  email: string;
  expires_at: string;
  used_at: string | null;
  review_id: string | null;
}

/** An address that asked not to get a kind of e-mail (migration 0048: 'review-requests'). */
export interface EmailOptOutsTable {
  email: string;
  kind: string;
  created_at: string;
}

/** An address's answer to "Send me offers and reminders" (migration 0050, decision 0060). */
export interface MarketingConsentsTable {
  email: string;
  /** What an unsubscribe link names (newId('mkt')). */
  id: string;
  user_id: string | null;
  status: 'granted' | 'withdrawn';
  source: 'sign-up' | 'checkout' | 'account';
  granted_at: string;
  withdrawn_at: string | null;
  withdrawn_via: 'account' | 'unsubscribe' | null;
}

/** What the owner offers (migration 0042): per product (`variant_id` '') or per variant (its row wins). */
export interface SubscriptionPlansTable {
  product_id: string;
  variant_id: string;
  enabled: number;
  /** JSON array of whole weeks, ascending: [2, 4, 6, 8]. */
  intervals: string;
  discount_percent: number;
  later_discount_percent: number | null;
  later_from_delivery: number | null;
  created_at: string;
  updated_at: string;
}

/** The terms a shopper ticked next to Pay for an order with subscription lines. */
export interface SubscriptionConsentsTable {
  order_id: string;
  text: string;
  accepted_at: string;
}

export type SubscriptionStatus = 'active' | 'paused' | 'payment_failing' | 'cancelled';

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  email: string;
  status: SubscriptionStatus;
  every_weeks: number;
  discount_percent: number;
  later_discount_percent: number | null;
  later_from_delivery: number | null;
  deliveries: Generated<number>;
  cycles_started: Generated<number>;
  next_renewal_at: string;
  shipping_address: string;
  shipping_option_id: string | null;
  provider: string;
  customer_ref: string | null;
  payment_method_ref: string | null;
  payment_ref: string | null;
  first_order_id: string;
  consent_text: string;
  consent_at: string;
  manage_token_hash: string | null;
  failing_since: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  /** The card renewals charge (migration 0043): its brand and last four digits, never a number; null until known. */
  card_brand: string | null;
  card_last4: string | null;
  created_at: string;
  updated_at: string;
}

/** A link an e-mail gave to manage a subscription without signing in: the hash of its token. */
export interface SubscriptionLinksTable {
  token_hash: string;
  subscription_id: string;
  created_at: string;
}

export interface SubscriptionItemsTable {
  subscription_id: string;
  product_id: string;
  variant_id: string;
  quantity: number;
  /** 1: left out of the next delivery only (migration 0043); the renewal that pays sets it back to 0. */
  skip_next: Generated<number>;
  /** The shop's price per unit, before the subscription's discount, the customer was last told (migration 0045); null: not known (charged at today's price). */
  agreed_price_cents: Generated<number | null>;
}

/** A subscription's timeline (migration 0043): one row per event, never updated or deleted. */
export interface SubscriptionEventsTable {
  id: string;
  subscription_id: string;
  type: string;
  actor_user_id: string | null;
  actor_label: string;
  /** JSON object: what changed (before and after), the delivery date, the reason. */
  data: string;
  created_at: string;
}

/** A one-time item for the next delivery only (migration 0043). */
export interface SubscriptionExtrasTable {
  subscription_id: string;
  product_id: string;
  variant_id: string;
  quantity: number;
  created_at: string;
}

export type SubscriptionCycleStatus =
  'scheduled' | 'charging' | 'retrying' | 'needs_customer' | 'waiting_stock' | 'paid' | 'skipped' | 'cancelled';

/** One renewal of one subscription: the primary key (subscription, cycle) makes each happen once. */
export interface SubscriptionCyclesTable {
  subscription_id: string;
  cycle: number;
  due_at: string;
  status: SubscriptionCycleStatus;
  order_id: string | null;
  amount_cents: number | null;
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  waiting_since: string | null;
  reminded_at: string | null;
  message: string | null;
  created_at: string;
  updated_at: string;
}

/** The built-in test card page's saved methods: a behaviour and the last four digits, never a card number. */
export interface TestPaymentMethodsTable {
  id: string;
  behaviour: 'succeed' | 'decline' | 'authenticate';
  brand: string;
  last4: string;
  created_at: string;
}

/** The test card page's answer to a charge with the customer away, kept by its idempotency key (the same key, the same answer). */
export interface TestOffSessionChargesTable {
  idempotency_key: string;
  order_id: string;
  /** JSON of the OffSessionOutcome given (payments/test-off-session.ts). */
  outcome: string;
  created_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type ProductRow = Selectable<ProductsTable>;
export type CategoryRow = Selectable<CategoriesTable>;
export type { Generated };

/**
 * A page the customer was sent to for a new card (migration 0044): Stripe Checkout in setup mode or
 * the test card page in setup mode. Single use: open until its card is saved (completed) or it ends.
 */
export interface SubscriptionCardUpdatesTable {
  id: string;
  subscription_id: string;
  provider: string;
  /** Stripe's cs_… (found by the webhook); the test card page's is the row's own id. */
  provider_session_id: string | null;
  customer_ref: string | null;
  status: Generated<'open' | 'completed' | 'ended'>;
  /** Where the customer goes back to: the account's dashboard, or an e-mail link's page (a fresh link: no token is kept). */
  return_to: 'account' | 'link';
  actor_user_id: string | null;
  actor_label: string;
  payment_method_ref: string | null;
  card_brand: string | null;
  card_last4: string | null;
  /** Why it ended without a card. */
  message: string | null;
  expires_at: string;
  created_at: string;
  completed_at: string | null;
}

/**
 * A price change told to a subscriber for one item (migration 0045, subscriptions/price-notices.ts):
 * the unit price per delivery before and after, and the state told (shop price, discount terms)
 * that holds for deliveries due from `effective_from`.
 */
export interface SubscriptionPriceNoticesTable {
  id: string;
  subscription_id: string;
  product_id: string;
  variant_id: string;
  from_cents: number;
  to_cents: number;
  price_cents: number;
  discount_percent: number;
  later_discount_percent: number | null;
  later_from_delivery: number | null;
  told_at: string;
  effective_from: string;
  status: 'pending' | 'applied' | 'superseded';
  email_id: string | null;
  settled_at: string | null;
}

/** A product whose price or plan changed, for the schedule's background pass to tell its subscribers (migration 0045). */
export interface SubscriptionPriceReviewsTable {
  product_id: string;
  marked_at: string;
  /** The last subscription id reviewed in this pass ('' to start). */
  cursor: Generated<string>;
  lease_until: string | null;
}

/** A checkout left unpaid past the owner's first delay (migration 0051, decision 0061). */
export interface CheckoutRecoveriesTable {
  id: string;
  order_id: string;
  /** The checkout's address, lower-cased. */
  email: string;
  user_id: string | null;
  /** The browser that made the checkout (its stock hold's device), when known. */
  device_id: string | null;
  state: 'abandoned' | 'emailed' | 'recovered' | 'opted-out' | 'expired' | 'closed';
  reason: string | null;
  value_cents: number;
  checkout_at: string;
  emails_sent: Generated<number>;
  /** When the next e-mail is due; null: none is. */
  next_email_at: string | null;
  last_email_at: string | null;
  /** The outbox row of the last e-mail queued (deleted while still queued should the shopper pay first). */
  mail_id: string | null;
  coupon_id: string | null;
  coupon_code: string | null;
  /** When its restore link put the cart back (a link works once). */
  restored_at: string | null;
  /** The restore link's end, and the end of the time an order still counts as recovered. */
  expires_at: string;
  recovered_order_id: string | null;
  recovered_at: string | null;
  recovered_cents: number | null;
  created_at: string;
  updated_at: string;
}

/** A cart emptied by hand (migration 0051): `holder` 'device:<hash>' or 'user:<id>'. */
export interface EmptiedCartsTable {
  holder: string;
  emptied_at: string;
}

/** One order line decided by the reorder reminder pass (migration 0052, marketing/reorder-reminders.ts). */
export interface ReorderRemindersTable {
  id: string;
  order_id: string;
  product_id: string;
  /** The variant the line bought (what the reorder link puts back). */
  variant_id: string | null;
  /** The order's address, lower-cased ('' when the order had none). */
  email: string;
  user_id: string | null;
  /** The e-mail's key: the rows of one e-mail share it, and its reorder link names it. */
  batch_id: string;
  state: 'sent' | 'skipped';
  /** Why it was not e-mailed (shared/reorder-reminders.ts REORDER_SKIP_REASONS); null when sent. */
  reason: string | null;
  /** When the reminder was due: paid_at plus the product's days. */
  due_at: string;
  /** The e-mail queued. */
  mail_id: string | null;
  /** Until when an order of the product by the address counts as one that followed (and the link works). */
  follow_until: string;
  /** When the reorder link was first used. */
  clicked_at: string | null;
  created_at: string;
}
