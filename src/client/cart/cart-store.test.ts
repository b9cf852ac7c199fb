import { beforeEach, describe, expect, it, vi } from 'vitest';

const product = { id: 'p1', name: '1 - Cloth', priceCents: 1299, images: ['/a.jpg'] };

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, v),
  };
}

async function freshStore() {
  vi.resetModules();
  return { ...(await import('./cart-store.js')), ...(await import('./stock-fit.js')) };
}

describe('cart store', () => {
  beforeEach(() => {
    const storage = memoryStorage();
    vi.stubGlobal('window', { localStorage: storage, addEventListener: () => {}, removeEventListener: () => {} });
  });

  it('keeps two variants of a product as two lines, each capped at its own stock; the first variant is kept as a plain line', async () => {
    const { addToCart, getCart, removeFromCart, lineKey, unitsInCart } = await freshStore();
    const lavender = { ...product, name: '1 - Cloth — Lavender', variantId: 'var_p1' };
    const lemon = { ...product, name: '1 - Cloth — Lemon', priceCents: 1599, variantId: 'var_lemon' };
    expect(addToCart({ product: lavender, quantity: 2, inventory: 3 })).toBe(2);
    expect(addToCart({ product: lemon, quantity: 5, inventory: 4 })).toBe(4);
    // A line naming no variant is the product's first: the same line.
    expect(addToCart({ product, quantity: 5, inventory: 3 })).toBe(1);
    const cart = getCart();
    expect(cart.items.map((l) => [l.product.variantId, l.quantity])).toEqual([
      [undefined, 3],
      ['var_lemon', 4],
    ]);
    expect(cart.totalCents).toBe(3 * 1299 + 4 * 1599);
    expect([unitsInCart('p1', undefined), unitsInCart('p1', 'var_p1'), unitsInCart('p1', 'var_lemon')]).toEqual([3, 3, 4]);
    removeFromCart(lineKey(cart.items[1]!));
    expect(getCart().items).toHaveLength(1);
  });

  it('merges the same product, size and colour and caps at inventory', async () => {
    const { addToCart, getCart } = await freshStore();
    expect(addToCart({ product, quantity: 2, inventory: 5 })).toBe(2);
    expect(addToCart({ product, quantity: 10, inventory: 5 })).toBe(3);
    expect(addToCart({ product, quantity: 1, inventory: 5 })).toBe(0);
    const cart = getCart();
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({ quantity: 5, size: 'One Size', color: 'Default' });
    expect(cart.itemCount).toBe(5);
    expect(cart.totalCents).toBe(5 * 1299);
  });

  it('keeps quantities between 1 and inventory, removes and clears', async () => {
    const { addToCart, setCartQuantity, removeFromCart, clearCart, getCart } = await freshStore();
    addToCart({ product, quantity: 1, inventory: 5 });
    const key = { productId: 'p1', size: 'One Size', color: 'Default' };
    setCartQuantity(key, 0, 5);
    expect(getCart().items[0]?.quantity).toBe(1);
    setCartQuantity(key, 9, 5);
    expect(getCart().items[0]?.quantity).toBe(5);
    removeFromCart(key);
    expect(getCart().items).toHaveLength(0);
    addToCart({ product, quantity: 1, inventory: 5 });
    clearCart();
    expect(getCart()).toMatchObject({ items: [], itemCount: 0, totalCents: 0, appliedCouponCode: null });
  });

  it('persists under the "cart" key and ignores corrupt storage', async () => {
    const { addToCart } = await freshStore();
    addToCart({ product, quantity: 2, inventory: 5 });
    const saved = JSON.parse(window.localStorage.getItem('cart') ?? '{}') as { items: unknown[] };
    expect(saved.items).toHaveLength(1);
    window.localStorage.setItem('cart', '{"items":[{"nope":1}]}');
    const again = await freshStore();
    expect(again.getCart().items).toHaveLength(0);
  });
});

describe('the cart follows stock', () => {
  beforeEach(() => {
    vi.stubGlobal('window', { localStorage: memoryStorage(), addEventListener: () => {}, removeEventListener: () => {} });
  });

  /** A quote line for the cart's default size and colour. */
  const quoted = (over: {
    productId?: string;
    name?: string;
    quantity: number;
    inventory: number;
    size?: string;
    isFreeGift?: boolean;
  }) => ({
    productId: 'p1',
    name: '1 - Cloth',
    image: null,
    priceCents: 1299,
    size: 'One Size',
    color: 'Default',
    lineTotalCents: 1299 * over.quantity,
    isFreeGift: false,
    missing: false,
    insufficientStock: over.quantity > over.inventory,
    ...over,
    variantId: `var_${over.productId ?? 'p1'}`,
    productName: over.name ?? '1 - Cloth',
    variantLabel: '',
  });

  it("adds only what can be bought, over all of a product's lines, and says how many", async () => {
    const { addToCart, getCart } = await freshStore();
    expect(addToCart({ product, quantity: 5, inventory: 2 })).toBe(2);
    expect(addToCart({ product, quantity: 1, inventory: 2, size: 'Large' })).toBe(0);
    expect(addToCart({ product, quantity: 3, inventory: 4, size: 'Large' })).toBe(2);
    expect(getCart().items.map((l) => [l.size, l.quantity])).toEqual([
      ['One Size', 2],
      ['Large', 2],
    ]);
    expect(addToCart({ product, quantity: 1, inventory: 0 })).toBe(0);
  });

  it('lowers a short product to what is left, sharing it over its lines in cart order, and removes it at 0', async () => {
    const { addToCart, fitCartToStock, getCart, stockShortfalls } = await freshStore();
    const other = { ...product, id: 'p2', name: '2 - Mop' };
    addToCart({ product, quantity: 3, inventory: 99 });
    addToCart({ product, quantity: 2, inventory: 99, size: 'Large' });
    addToCart({ product: other, quantity: 4, inventory: 99 });
    const lines = [
      { ...quoted({ quantity: 3, inventory: 4 }), insufficientStock: true },
      { ...quoted({ quantity: 2, inventory: 4, size: 'Large' }), insufficientStock: true },
      quoted({ productId: 'p2', name: '2 - Mop', quantity: 4, inventory: 0 }),
      // The coupon's gift is added by the server only when there is room: never a reason to lower.
      quoted({ productId: 'p3', name: 'Gift', quantity: 1, inventory: 0, isFreeGift: true }),
    ];
    const short = stockShortfalls(lines);
    expect(short).toEqual([
      { productId: 'p1', variantId: 'var_p1', name: '1 - Cloth', wanted: 5, available: 4, held: 0, heldUntil: null },
      { productId: 'p2', variantId: 'var_p2', name: '2 - Mop', wanted: 4, available: 0, held: 0, heldUntil: null },
    ]);
    fitCartToStock(short);
    expect(getCart().items.map((l) => [l.product.id, l.size, l.quantity])).toEqual([
      ['p1', 'One Size', 3],
      ['p1', 'Large', 1],
    ]);
    expect(getCart().itemCount).toBe(4);
    expect(stockShortfalls([quoted({ quantity: 3, inventory: 3 })])).toEqual([]);
  });
});

describe('coupons in the cart store', () => {
  beforeEach(() => {
    vi.stubGlobal('window', { localStorage: memoryStorage(), addEventListener: () => {}, removeEventListener: () => {} });
  });

  it('applies a coupon with its discount and gift, removes it with a reason, and persists', async () => {
    const { addToCart, applyCoupon, removeCoupon, setCouponError, getCart, clearCart } = await freshStore();
    addToCart({ product, quantity: 1, inventory: 5 });
    setCouponError('Invalid coupon code');
    expect(getCart().couponError).toBe('Invalid coupon code');
    applyCoupon('FREEGIFT', 0, { id: 'cloth-1-pack', name: '1 - Reusable Cleaning Cloth' });
    expect(getCart()).toMatchObject({ appliedCouponCode: 'FREEGIFT', couponError: null, freeProduct: { id: 'cloth-1-pack' } });
    const saved = JSON.parse(window.localStorage.getItem('cart') ?? '{}') as { appliedCouponCode: string };
    expect(saved.appliedCouponCode).toBe('FREEGIFT');
    removeCoupon('Minimum order amount of $100.00 required');
    expect(getCart()).toMatchObject({
      appliedCouponCode: null,
      appliedCouponDiscountCents: 0,
      freeProduct: null,
      couponError: 'Minimum order amount of $100.00 required',
    });
    applyCoupon('WELCOME10', 130, null);
    clearCart();
    expect(getCart()).toMatchObject({ items: [], appliedCouponCode: null, appliedCouponDiscountCents: 0, couponError: null });
  });

  it('drops the coupon when the last line is removed, and counts the free gift as an item', async () => {
    const { addToCart, applyCoupon, removeFromCart, getCart } = await freshStore();
    addToCart({ product, quantity: 2, inventory: 5 });
    applyCoupon('FREEGIFT', 0, { id: 'cloth-1-pack', name: '1 - Reusable Cleaning Cloth' });
    expect(getCart().itemCount).toBe(3);
    removeFromCart({ productId: 'p1', size: 'One Size', color: 'Default' });
    expect(getCart()).toMatchObject({ items: [], itemCount: 0, appliedCouponCode: null, freeProduct: null });
    const saved = JSON.parse(window.localStorage.getItem('cart') ?? '{}') as { appliedCouponCode: string | null };
    expect(saved.appliedCouponCode).toBeNull();
  });

  it('takes a paid order out of the cart once, and only for a checkout this browser started', async () => {
    const { addToCart, applyCoupon, getCart } = await freshStore();
    const { rememberCheckout, removeBoughtLines } = await import('./bought-lines.js');
    const other = { ...product, id: 'p2', name: '2 - Mop' };
    addToCart({ product, quantity: 2, inventory: 9 });
    applyCoupon('WELCOME10', 260, null);
    rememberCheckout('order-1');
    // Back from the card page (or another tab): one more cloth and a mop.
    addToCart({ product, quantity: 1, inventory: 9 });
    addToCart({ product: other, quantity: 1, inventory: 9 });
    const order = {
      id: 'order-1',
      couponCode: 'WELCOME10',
      items: [{ productId: 'p1', size: 'One Size', color: 'Default', quantity: 2, isFreeGift: false }],
    };
    expect(removeBoughtLines({ ...order, id: 'someone-elses' })).toBe(false);
    expect(getCart().itemCount).toBe(4);
    expect(removeBoughtLines(order)).toBe(true);
    expect(getCart().items.map((l) => [l.product.id, l.quantity])).toEqual([
      ['p1', 1],
      ['p2', 1],
    ]);
    expect(getCart().appliedCouponCode).toBeNull();
    // A reload of the confirmation takes nothing more.
    expect(removeBoughtLines(order)).toBe(false);
    expect(getCart().itemCount).toBe(2);
  });

  it('remembers used coupons per device under "usedCoupons"', async () => {
    vi.resetModules();
    const { hasUsedCoupon, markCouponUsed, getUsedCoupons } = await import('./used-coupons.js');
    expect(hasUsedCoupon('welcome10')).toBe(false);
    markCouponUsed('WELCOME10');
    markCouponUsed(' welcome10 ');
    expect(getUsedCoupons()).toEqual(['WELCOME10']);
    expect(hasUsedCoupon(' Welcome10')).toBe(true);
    window.localStorage.setItem('usedCoupons', '{broken');
    expect(getUsedCoupons()).toEqual([]);
  });
});

/** A document whose cookie jar keeps name=value pairs and honours Max-Age=0, as a browser does. */
function cookieDocument() {
  const jar = new Map<string, string>();
  return {
    jar,
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(line: string) {
      const [pair = '', ...attrs] = line.split('; ');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      if (attrs.includes('Max-Age=0')) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1));
    },
  };
}

describe('the cart cookie and the cart the server drew', () => {
  let doc: ReturnType<typeof cookieDocument>;
  beforeEach(() => {
    doc = cookieDocument();
    vi.stubGlobal('window', {
      localStorage: memoryStorage(),
      location: { protocol: 'http:' },
      addEventListener: () => {},
      removeEventListener: () => {},
    });
    vi.stubGlobal('document', doc);
  });
  const cookieCart = () => JSON.parse(decodeURIComponent(doc.jar.get('cart') ?? 'null')) as { l: unknown[]; c: string | null } | null;

  it('names the chosen variant in the cookie, the product’s first included (a line added without one writes what it always did)', async () => {
    const { addToCart } = await freshStore();
    // A product sold in versions is refused at checkout without one named: the first, chosen, stays named.
    addToCart({ product: { ...product, variantId: 'var_p1' }, quantity: 1, inventory: 5 });
    addToCart({ product: { ...product, variantId: 'var_lemon' }, quantity: 2, inventory: 5 });
    addToCart({ product: { ...product, id: 'p2' }, quantity: 1, inventory: 5 });
    expect(cookieCart()).toEqual({
      l: [
        ['p1', 1, 'One Size', 'Default', 'var_p1'],
        ['p1', 2, 'One Size', 'Default', 'var_lemon'],
        ['p2', 1, 'One Size', 'Default'],
      ],
      c: null,
    });
  });

  it('mirrors the lines and coupon into the cookie, and drops it when the cart is too large for one', async () => {
    const { addToCart, applyCoupon, clearCart } = await freshStore();
    expect(doc.jar.has('cart')).toBe(false);
    addToCart({ product, quantity: 2, inventory: 5 });
    applyCoupon('SAVE5', 500, null);
    expect(cookieCart()).toEqual({ l: [['p1', 2, 'One Size', 'Default']], c: 'SAVE5' });
    // Emptied: the server should draw an empty cart, not the one before.
    clearCart();
    expect(cookieCart()).toEqual({ l: [], c: null });
    for (let i = 0; i < 100; i++) addToCart({ product: { ...product, id: `a-product-with-a-long-id-${i}` }, quantity: 1, inventory: 5 });
    expect(doc.jar.has('cart')).toBe(false);
  });

  it("takes the cart the page was drawn with when it holds the same lines (today's names and prices), and keeps its own otherwise", async () => {
    const { QueryClient } = await import('@tanstack/react-query');
    const { queryKeys } = await import('../../shared/query-keys.js');
    const { addToCart, adoptPageCart, getCart } = await freshStore();
    addToCart({ product, quantity: 2, inventory: 5 });
    // What the cart page embeds: the cookie's contents, and the quote for them.
    const pageData = (quantity: number) => {
      const lines = [{ productId: 'p1', quantity, size: 'One Size', color: 'Default' }];
      const quoteLine = {
        ...lines[0]!,
        name: '1 - Cloth (new name)',
        image: '/b.jpg',
        priceCents: 1099,
        inventory: 9,
        lineTotalCents: 1099 * quantity,
        isFreeGift: false,
        missing: false,
        insufficientStock: false,
      };
      const client = new QueryClient();
      client.setQueryData(queryKeys.cart(), { lines, couponCode: null });
      client.setQueryData(queryKeys.cartQuote(lines, null, null), { lines: [quoteLine], coupon: null, discountCents: 0 });
      return client;
    };
    adoptPageCart(pageData(3));
    expect(getCart().items[0]).toMatchObject({ quantity: 2, product: { name: '1 - Cloth' } });
    adoptPageCart(new QueryClient());
    expect(getCart().items[0]).toMatchObject({ quantity: 2, product: { name: '1 - Cloth' } });
    adoptPageCart(pageData(2));
    expect(getCart()).toMatchObject({
      itemCount: 2,
      totalCents: 2198,
      items: [{ product: { name: '1 - Cloth (new name)', images: ['/b.jpg'] } }],
    });
    expect(JSON.parse(window.localStorage.getItem('cart') ?? '{}')).toMatchObject({ items: [{ product: { priceCents: 1099 } }] });
  });

  it('keeps a subscription line apart from the one-time line of its variant; buying it once joins them', async () => {
    const { addToCart, getCart, lineKey, setCartQuantity } = await freshStore();
    const { buyLineOnce } = await import('./buy-line-once.js');
    expect(addToCart({ product, quantity: 1, inventory: 10 })).toBe(1);
    expect(addToCart({ product, quantity: 2, inventory: 10, everyWeeks: 4 })).toBe(2);
    expect(addToCart({ product, quantity: 1, inventory: 10, everyWeeks: 4 })).toBe(1);
    expect(addToCart({ product, quantity: 1, inventory: 10, everyWeeks: 8 })).toBe(1);
    // Stock is the variant's over all its lines, whatever their interval.
    expect(addToCart({ product, quantity: 9, inventory: 10, everyWeeks: 2 })).toBe(5);
    expect(getCart().items.map((l) => [l.everyWeeks, l.quantity])).toEqual([
      [undefined, 1],
      [4, 3],
      [8, 1],
      [2, 5],
    ]);
    const every4 = getCart().items[1]!;
    setCartQuantity(lineKey(every4), 2);
    expect(getCart().items.map((l) => l.quantity)).toEqual([1, 2, 1, 5]);
    // The plan no longer offers it: bought once, it joins the one-time line.
    buyLineOnce(lineKey(getCart().items[1]!));
    expect(getCart().items.map((l) => [l.everyWeeks, l.quantity])).toEqual([
      [undefined, 3],
      [8, 1],
      [2, 5],
    ]);
    expect(JSON.parse(window.localStorage.getItem('cart') ?? '{}').items[1]).toMatchObject({ everyWeeks: 8, quantity: 1 });
  });
});
