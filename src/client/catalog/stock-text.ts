/**
 * The product page's stock words (decision 0022), in one place for the page and the browser
 * journeys. Plain data: the page imports it without zod.
 */
export const STOCK_LINE = {
  inStock: (available: number) => `In stock (${available} available)`,
  /** Every buyable unit sits in other shoppers' unpaid checkouts; `until` is a local time, or null before the page is live. */
  reserved: (units: number, until: string | null) => {
    const when = until ? `by ${until}` : 'soon';
    return units === 1
      ? `The last one is in another shopper's checkout — it may be back ${when}`
      : `All ${units} left are in other shoppers' checkouts — some may be back ${when}`;
  },
  outOfStock: 'Out of stock',
} as const;

/** "Notify me when it's back" on a sold-out product. */
export const NOTIFY_ME = {
  title: "Notify me when it's back",
  /** The title for a product with options: the request is for the version chosen ('Lavender, 32 oz'). */
  titleFor: (variantLabel?: string) => (variantLabel ? `Notify me when ${variantLabel} is back` : "Notify me when it's back"),
  intro: "Leave your e-mail and we'll write once, when it is in stock again. No account needed.",
  emailLabel: 'Email address',
  submit: 'Notify me',
  pending: 'Saving...',
  failed: 'We could not save your request. Please try again.',
} as const;
