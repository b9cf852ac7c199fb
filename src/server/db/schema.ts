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
  test_payment_methods: TestPaymentMethodsTable;
  test_off_session_charges: TestOffSessionChargesTable;
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
