/**
 * The checkout's fixed texts and the list of states: plain data, without zod, so the cart page
 * can show them without loading the schema library first. schemas/checkout.ts re-exports them.
 */
import { formatCents } from './money.js';

export const US_STATES = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  // Not a state, but a place the shop ships to like any other (the specification lists the 50).
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
] as const;
export const US_STATE_CODES = US_STATES.map(([code]) => code) as [string, ...string[]];
export const DEFAULT_STATE = 'CA';
/** Where the shop ships, said beside every state list (the list holds exactly these). */
export const SHIPS_TO_TEXT = 'We ship to all 50 states and Washington, D.C.';

/** "a", "a and b", "a, b and c". */
function listWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? 'options') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

export const CHECKOUT_MESSAGES = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  email: 'Please enter a valid email',
  address: 'Address is required',
  city: 'City is required',
  state: 'State is required',
  shipsTo: `We cannot ship there. ${SHIPS_TO_TEXT}`,
  zip: 'ZIP code must be 5 digits (e.g., 12345 or 12345-6789)',
  validationTitle: 'Validation Error',
  validationIntro: 'Please fix the following issues:',
  checkoutError: 'Checkout Error',
  checkoutFallback: 'Failed to initialize checkout. Please try again.',
  sessionFallback: 'Failed to create checkout session',
  retrieveFallback: 'Failed to retrieve checkout session',
  emptyCart: 'Your cart is empty',
  outOfStock: (name: string, available: number) =>
    available > 0 ? `Only ${available} of ${name} left in stock` : `${name} is out of stock`,
  missingProduct: 'A product in your cart is no longer available',
  /** A line of a product sold in versions that names none: refused rather than sold as the first version. */
  chooseOptions: (name: string, optionNames: readonly string[]) =>
    `Please choose the ${listWords(optionNames.map((o) => o.toLowerCase()))} of ${name} on its page: it comes in more than one version.`,
  noShipping: 'No shipping options available for your order total.',
  /** The spec's hint: the extra spend that unlocks the next shipping option. */
  shippingUnlock: (amount: string, optionName: string) => `Add ${amount} more to unlock ${optionName}.`,
  /** Why Pay (and Proceed to Checkout) cannot be used while no option ships this order. */
  noShippingBlocked: 'Checkout cannot continue until a shipping option is available for your order.',
  lineQuantity: 'A cart line can hold at most 10,000 units',
  orderTooLarge: 'An order cannot exceed $999,999.99. Please place it as several orders, or contact us.',
  tooManyCheckouts: 'Too many checkout attempts. Please wait a few minutes and try again.',
  holdLimit: (max: number) =>
    `You can have at most ${max} items waiting for payment at once. Finish or cancel your other checkout, or contact us for a larger order.`,
} as const;

/**
 * What the cart and checkout pages say when the cart meets the stock (decision 0022: the cart
 * follows stock): a line lowered to what is left, and the checkout stopped before Pay. Add to
 * Cart's own words are in src/client/cart/use-add-to-cart.ts (the first-load bundle; this file is not).
 */
export const CART_STOCK_MESSAGES = {
  cartUpdatedTitle: 'We updated your cart to what is in stock',
  lowered: (name: string, available: number) => `Only ${available} of ${name} left: your cart now holds ${available}.`,
  removed: (name: string) => `${name} is out of stock: we took it out of your cart.`,
  /** Said under the lowered lines when lowering took the subtotal under the free-shipping minimum. */
  lostFreeShipping: (minimumCents: number) =>
    `Your subtotal is now under ${formatCents(minimumCents)}, so this order no longer qualifies for free shipping.`,
  /** A quantity typed above what can be bought is cut to it, and the line says why. */
  onlyInStock: (available: number) => `Only ${available} in stock`,
  checkoutShortTitle: 'Some items in your cart are no longer in stock',
  checkoutShortHelp: 'Update your cart to what is left before you pay.',
  fitCart: "Update cart to what's left",
} as const;

/** Buy Now pays for the whole cart: said on the checkout when the cart holds more than that product. */
export const BUY_NOW_MESSAGES = {
  title: 'This checkout is for your whole cart',
  text: (name: string, others: number) =>
    `You chose Buy Now for ${name}. Your cart also holds ${others} other ${others === 1 ? 'item' : 'items'}, and ${others === 1 ? 'it is' : 'they are'} in this order too. To buy ${name} alone, remove the others from your cart first.`,
  review: 'Review Cart',
} as const;

/**
 * Bounds of a checkout. A line holds at most 10,000 units. The server's config adds the limits
 * on creating checkouts (per IP and per browser) and on the units one shopper may hold at once
 * (250 unless CHECKOUT_MAX_UNITS_HELD says otherwise); see docs/decisions/0005.
 */
export const CHECKOUT_LIMITS = {
  maxLineQuantity: 10_000,
} as const;

/** Labels of the 'Validation Error' toast's list. */
/**
 * The longest value each typed checkout field takes (the checkout schema's limits: the unit test
 * holds them equal), for the inputs' maxLength without evaluating the schema library when the
 * checkout page loads.
 */
export const CHECKOUT_FIELD_MAX_LENGTH: Readonly<Partial<Record<string, number>>> = {
  firstName: 50,
  lastName: 50,
  email: 254,
  address: 200,
  city: 100,
};

export const CHECKOUT_FIELD_LABELS = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email Address',
  address: 'Street Address',
  city: 'City',
  state: 'State',
  zip: 'ZIP Code',
} as const;

/**
 * A thank-you or success page opened with no order named (a bookmark, a typed address): not an
 * error, the ways to an order instead (decision 0044).
 */
export const NO_ORDER_NAMED_TEXTS = {
  title: 'Looking for an order?',
  text: 'This page opens at the end of a checkout, and this link names no order. Your orders are listed in My Orders once you sign in, and each order’s confirmation e-mail holds its number.',
  myOrders: 'My Orders',
  shop: 'Continue Shopping',
  contact: 'Ask us about an order',
} as const;
