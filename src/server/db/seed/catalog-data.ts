// Seed data for the EcoClean shop: categories, products, shipping options,
// coupons, FAQs and site settings. Plain typed constants, no imports.
// All money values are integer cents.

export type SeedCategory = {
  id: string;
  name: string;
  description: string;
  imageUrl: string;
  sortOrder: number;
};

export type SeedProduct = {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  categoryId: string;
  images: string[];
  featured: boolean;
  inventory: number;
  sku?: string;
  brand?: string;
  weightLbs?: number;
  dimensions?: { length: number; width: number; height: number };
  /** Up to three options (decision 0036); with them, `variants` lists the versions sold. */
  options?: { name: string; values: string[] }[];
  /**
   * The versions sold, one per combination the shop has: the first is the product's own
   * (`var_<id>`, with the product's price, SKU and stock above), the rest get their own.
   */
  variants?: {
    options: string[];
    priceCents: number;
    sku?: string;
    inventory: number;
    compareAtCents?: number;
    image?: string;
    /** Its size for the price per unit (decision 0043): 32 and 'oz'. */
    unitSize?: UnitSize;
  }[];
  /** A product without options: its one variant's size for the price per unit (16 and 'oz'). */
  unitSize?: UnitSize;
  /** A refill's typical use: its one-time buyers are reminded to reorder this many days after paying (issue [7/8] item 4). */
  reorderAfterDays?: number;
};

/** How much a version holds, for its price per unit (shared/unit-price.ts UNIT_BASES names the units). */
export type UnitSize = { quantity: number; unit: 'oz' | 'fl oz' | 'lb' | 'g' | 'kg' | 'ml' | 'l' | 'count' };

export type SeedShippingOption = {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  estimatedDays: string;
  enabled: boolean;
  minimumOrderCents: number | null;
  sortOrder: number;
};

export type SeedCoupon = {
  id: string;
  code: string;
  description: string;
  discountType: 'percentage' | 'fixed';
  /** Percent 0-100 for 'percentage'; CENTS for 'fixed'. */
  discountValue: number;
  minOrderCents: number | null;
  maxUses: number | null;
  currentUses: number;
  /** ISO 8601 timestamp. */
  validFrom: string;
  /** ISO 8601 timestamp, or null for no expiry. */
  validUntil: string | null;
  isActive: boolean;
  freeProductId: string | null;
};

export type SeedFaq = {
  id: string;
  question: string;
  answer: string;
  category: string | null;
  sortOrder: number;
};

type SeedSetting = { key: string; value: string; description: string };

const categoryImage = (id: string): string => `/images/categories/${id}.svg`;
const productImages = (id: string): string[] => [`/images/products/${id}.svg`];
const oz = (quantity: number): UnitSize => ({ quantity, unit: 'oz' });
const count = (quantity: number): UnitSize => ({ quantity, unit: 'count' });

export const seedCategories: SeedCategory[] = [
  {
    id: 'cleaning-cloths',
    name: 'Cleaning Cloths',
    description: 'Reusable, machine-washable cleaning cloths that replace paper towels and disposable wipes, sold singly or in packs.',
    imageUrl: categoryImage('cleaning-cloths'),
    sortOrder: 1,
  },
  {
    id: 'mops',
    name: 'Mops',
    description: 'A sweep-and-mop tool with washable refill pads and handle parts for hard floors.',
    imageUrl: categoryImage('mops'),
    sortOrder: 2,
  },
  {
    id: 'cleaners',
    name: 'Cleaners',
    description: 'Concentrated cleaners, laundry powder and solid soap that come in less packaging and last a long time.',
    imageUrl: categoryImage('cleaners'),
    sortOrder: 3,
  },
  {
    id: 'glass-cleaning',
    name: 'Glass Cleaning',
    description: 'Lint-free cloths, a squeegee and a glass cleaner concentrate for streak-free windows and mirrors.',
    imageUrl: categoryImage('glass-cleaning'),
    sortOrder: 4,
  },
  {
    id: 'commercial',
    name: 'Commercial',
    description: 'Bulk cases and large-format cleaners for offices, cafes, cleaning crews and other businesses.',
    imageUrl: categoryImage('commercial'),
    sortOrder: 5,
  },
  {
    id: 'accessories',
    name: 'Other',
    description: 'Spare parts, spray bottles, laundry bags and other small items that go with our products.',
    imageUrl: categoryImage('accessories'),
    sortOrder: 6,
  },
  {
    id: 'bundles',
    name: 'Bundles',
    description: 'Sets of our most-used products put together at a lower price than buying each item separately.',
    imageUrl: categoryImage('bundles'),
    sortOrder: 7,
  },
];

export const seedProducts: SeedProduct[] = [
  // ---- Cleaning cloths (leading number orders the packs) ----
  {
    id: 'cloth-1-pack',
    name: '1 - Reusable Cleaning Cloth',
    description:
      'A single reusable cleaning cloth, about 12 x 12 inches. Use it damp or dry on counters, tables and appliances, then toss it in the wash.',
    priceCents: 499,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-1-pack'),
    unitSize: count(1),
    featured: false,
    inventory: 200,
    sku: 'ECO-CC-001',
    brand: 'EcoClean',
    weightLbs: 0.1,
    dimensions: { length: 12, width: 12, height: 0.2 },
  },
  {
    id: 'cloth-2-pack',
    name: '2 - Reusable Cleaning Cloths (2-Pack)',
    description: 'Two reusable cleaning cloths, one for the kitchen and one for the bathroom. Machine washable and reusable many times.',
    priceCents: 899,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-2-pack'),
    unitSize: count(2),
    featured: false,
    inventory: 180,
    sku: 'ECO-CC-002',
    brand: 'EcoClean',
    weightLbs: 0.2,
    dimensions: { length: 12, width: 12, height: 0.4 },
  },
  {
    id: 'cloth-5-pack',
    name: '5 - Reusable Cleaning Cloths (5-Pack)',
    description:
      'Five reusable cleaning cloths in assorted colors so you can keep one for each room. Wash warm and air dry or tumble dry low.',
    priceCents: 1999,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-5-pack'),
    unitSize: count(5),
    featured: false,
    inventory: 150,
    sku: 'ECO-CC-005',
    brand: 'EcoClean',
    weightLbs: 0.5,
    dimensions: { length: 12, width: 12, height: 1 },
  },
  {
    id: 'cloth-8-pack',
    name: '8 - Reusable Cleaning Cloths (8-Pack)',
    description: 'Eight reusable cleaning cloths, enough to rotate through a week of daily cleaning while the rest are in the wash.',
    priceCents: 2999,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-8-pack'),
    unitSize: count(8),
    featured: false,
    inventory: 120,
    sku: 'ECO-CC-008',
    brand: 'EcoClean',
    weightLbs: 0.8,
  },
  {
    id: 'cloth-10-pack',
    name: '10 - Reusable Cleaning Cloths (10-Pack)',
    description:
      'Our most popular pack: ten reusable cleaning cloths for every room in the house. One pack can replace a lot of paper towel rolls over its life.',
    priceCents: 3499,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-10-pack'),
    unitSize: count(10),
    featured: true,
    inventory: 140,
    sku: 'ECO-CC-010',
    brand: 'EcoClean',
    weightLbs: 1,
    dimensions: { length: 12, width: 12, height: 2 },
  },
  {
    id: 'cloth-12-pack',
    name: '12 - Reusable Cleaning Cloths (12-Pack)',
    description: 'Twelve reusable cleaning cloths in four colors, three of each, for color-coding kitchen, bath, floors and dusting.',
    priceCents: 3999,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-12-pack'),
    unitSize: count(12),
    featured: false,
    inventory: 90,
    sku: 'ECO-CC-012',
    brand: 'EcoClean',
  },
  {
    id: 'cloth-15-pack',
    name: '15 - Reusable Cleaning Cloths (15-Pack)',
    description: 'Fifteen reusable cleaning cloths for larger households or anyone who likes to grab a fresh cloth for every job.',
    priceCents: 4799,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-15-pack'),
    unitSize: count(15),
    featured: false,
    inventory: 75,
    sku: 'ECO-CC-015',
    brand: 'EcoClean',
    weightLbs: 1.5,
  },
  {
    id: 'cloth-20-pack',
    name: '20 - Reusable Cleaning Cloths (20-Pack)',
    description: 'Twenty reusable cleaning cloths, a good size for sharing between two homes or stocking a small office kitchen.',
    priceCents: 5999,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-20-pack'),
    unitSize: count(20),
    featured: false,
    inventory: 60,
    sku: 'ECO-CC-020',
    brand: 'EcoClean',
    weightLbs: 2,
    dimensions: { length: 12, width: 12, height: 4 },
  },
  {
    id: 'cloth-40-pack',
    name: '40 - Reusable Cleaning Cloths (40-Pack)',
    description:
      'Forty reusable cleaning cloths packed in a single recyclable box. Well suited to rental properties and shared workspaces.',
    priceCents: 10999,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-40-pack'),
    unitSize: count(40),
    featured: false,
    inventory: 35,
    sku: 'ECO-CC-040',
    brand: 'EcoClean',
    weightLbs: 4,
  },
  {
    id: 'cloth-100-pack',
    name: '100 - Reusable Cleaning Cloths (100-Pack)',
    description: 'One hundred reusable cleaning cloths for small businesses, schools and cleaning services.',
    priceCents: 24999,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-100-pack'),
    unitSize: count(100),
    featured: false,
    inventory: 20,
    sku: 'ECO-CC-100',
    brand: 'EcoClean',
    weightLbs: 10,
    dimensions: { length: 16, width: 13, height: 10 },
  },
  {
    id: 'cloth-300-pack',
    name: '300 - Reusable Cleaning Cloths (300-Pack)',
    description: 'Three hundred reusable cleaning cloths shipped in one carton. The lowest per-cloth price short of our commercial cases.',
    priceCents: 64999,
    categoryId: 'cleaning-cloths',
    images: productImages('cloth-300-pack'),
    unitSize: count(300),
    featured: false,
    inventory: 6,
    sku: 'ECO-CC-300',
    brand: 'EcoClean',
    weightLbs: 30,
    dimensions: { length: 24, width: 16, height: 14 },
  },

  // ---- Commercial ----
  {
    id: 'bulk-500-pack',
    name: 'Bulk Case - 500 Reusable Cleaning Cloths',
    description:
      'A commercial case of 500 reusable cleaning cloths for janitorial teams, hotels and restaurants. Ships on its own in two cartons.',
    priceCents: 99995,
    categoryId: 'commercial',
    images: productImages('bulk-500-pack'),
    unitSize: count(500),
    featured: false,
    inventory: 8,
    sku: 'ECO-BK-500',
    brand: 'EcoClean',
    weightLbs: 50,
    dimensions: { length: 24, width: 20, height: 18 },
  },
  {
    id: 'bulk-1000-pack',
    name: 'Bulk Case - 1000 Reusable Cleaning Cloths',
    description:
      'Our largest commercial case: 1,000 reusable cleaning cloths on one order. Contact us if you need a delivery date or invoice terms.',
    priceCents: 159595,
    categoryId: 'commercial',
    images: productImages('bulk-1000-pack'),
    unitSize: count(1000),
    featured: false,
    inventory: 5,
    sku: 'ECO-BK-1000',
    brand: 'EcoClean',
    weightLbs: 100,
    dimensions: { length: 40, width: 24, height: 20 },
  },
  {
    id: 'commercial-cleaner-gallon',
    name: 'Commercial All-Purpose Cleaner Concentrate (1 Gallon)',
    description:
      'A one-gallon jug of our all-purpose cleaner concentrate for busy facilities. Dilute with water in refillable spray bottles.',
    priceCents: 5999,
    categoryId: 'commercial',
    images: productImages('commercial-cleaner-gallon'),
    featured: false,
    inventory: 10,
    sku: 'ECO-CM-128',
    brand: 'EcoClean',
    weightLbs: 9,
    dimensions: { length: 7, width: 7, height: 12 },
  },

  // ---- Mops ----
  {
    id: 'sweep-and-mop',
    name: 'Sweep & Mop Tool',
    description:
      'A lightweight floor tool with a swivel head that takes our washable refill pads for dusting or damp mopping. Comes with one refill pad.',
    priceCents: 4999,
    categoryId: 'mops',
    images: productImages('sweep-and-mop'),
    featured: true,
    inventory: 45,
    sku: 'ECO-MP-001',
    brand: 'EcoClean',
    weightLbs: 2.5,
    dimensions: { length: 58, width: 17, height: 4 },
  },
  {
    id: 'mop-refill',
    name: 'Mop Refill Pad',
    description: 'A washable replacement pad for the Sweep & Mop Tool. Attaches with hook-and-loop strips and can be washed many times.',
    priceCents: 1299,
    categoryId: 'mops',
    images: productImages('mop-refill'),
    featured: false,
    inventory: 110,
    sku: 'ECO-MP-R01',
    reorderAfterDays: 90,
    brand: 'EcoClean',
    weightLbs: 0.3,
  },
  {
    id: 'mop-refill-3-pack',
    name: 'Mop Refill Pads (3-Pack)',
    description: 'Three washable refill pads for the Sweep & Mop Tool, so there is always a clean one ready.',
    priceCents: 3299,
    categoryId: 'mops',
    images: productImages('mop-refill-3-pack'),
    featured: false,
    inventory: 70,
    sku: 'ECO-MP-R03',
    brand: 'EcoClean',
    weightLbs: 0.9,
  },
  {
    id: 'extension-handle',
    name: 'Telescoping Extension Handle',
    description: 'An aluminum handle that extends from 36 to 60 inches and fits the Sweep & Mop Tool head and the Window Squeegee.',
    priceCents: 2499,
    categoryId: 'mops',
    images: productImages('extension-handle'),
    featured: false,
    inventory: 30,
    weightLbs: 1.2,
  },

  // ---- Cleaners ----
  {
    id: 'concentrated-cleaner',
    name: 'Concentrated All-Purpose Cleaner',
    description:
      'A plant-based all-purpose cleaner concentrate, unscented or with lavender or lemon oil. Mix one capful with water in a spray bottle; one bottle makes many refills.',
    priceCents: 1499,
    categoryId: 'cleaners',
    images: [
      '/images/products/concentrated-cleaner.svg',
      '/images/products/concentrated-cleaner-lavender.svg',
      '/images/products/concentrated-cleaner-lemon.svg',
    ],
    featured: true,
    inventory: 95,
    sku: 'ECO-CL-016',
    brand: 'EcoClean',
    weightLbs: 1.1,
    reorderAfterDays: 56,
    dimensions: { length: 3, width: 3, height: 8 },
    options: [
      { name: 'Scent', values: ['Unscented', 'Lavender', 'Lemon'] },
      { name: 'Size', values: ['16 oz', '32 oz'] },
    ],
    variants: [
      { options: ['Unscented', '16 oz'], priceCents: 1499, sku: 'ECO-CL-016', inventory: 95, unitSize: oz(16) },
      // No compare-at: $29.98 was two 16 oz bottles, never this bottle's price. The price per ounce says it.
      { options: ['Unscented', '32 oz'], priceCents: 2499, sku: 'ECO-CL-032', inventory: 40, unitSize: oz(32) },
      {
        options: ['Lavender', '16 oz'],
        priceCents: 1599,
        sku: 'ECO-CL-LAV-016',
        unitSize: oz(16),
        inventory: 30,
        image: '/images/products/concentrated-cleaner-lavender.svg',
      },
      {
        options: ['Lavender', '32 oz'],
        priceCents: 2599,
        sku: 'ECO-CL-LAV-032',
        unitSize: oz(32),
        inventory: 6,
        image: '/images/products/concentrated-cleaner-lavender.svg',
      },
      {
        options: ['Lemon', '16 oz'],
        priceCents: 1599,
        sku: 'ECO-CL-LEM-016',
        unitSize: oz(16),
        inventory: 25,
        image: '/images/products/concentrated-cleaner-lemon.svg',
      },
      // Sold out: the shop shows it struck through, with "Notify me".
      {
        options: ['Lemon', '32 oz'],
        priceCents: 2599,
        sku: 'ECO-CL-LEM-032',
        unitSize: oz(32),
        inventory: 0,
        image: '/images/products/concentrated-cleaner-lemon.svg',
      },
    ],
  },
  {
    id: 'laundry-powder',
    name: 'Laundry Powder (2 lb)',
    description: 'Unscented laundry powder in a recyclable paper box. Roughly 64 loads per box at the recommended dose.',
    priceCents: 1899,
    categoryId: 'cleaners',
    images: productImages('laundry-powder'),
    unitSize: { quantity: 2, unit: 'lb' },
    featured: true,
    inventory: 85,
    sku: 'ECO-LP-032',
    reorderAfterDays: 42,
    brand: 'EcoClean',
    weightLbs: 2,
    dimensions: { length: 7, width: 4, height: 9 },
  },
  {
    id: 'dish-soap-block',
    name: 'Solid Dish Soap Block',
    description:
      'A solid dish soap block that replaces liquid soap in a plastic bottle. Wet a brush or cloth, rub the block and wash as usual.',
    priceCents: 899,
    categoryId: 'cleaners',
    images: productImages('dish-soap-block'),
    featured: false,
    inventory: 9,
    brand: 'EcoClean',
    weightLbs: 0.5,
  },

  // ---- Glass cleaning ----
  {
    id: 'glass-cleaning-cloths',
    name: 'Glass Cleaning Cloths (4-Pack)',
    description: 'Four tightly woven, lint-free cloths for windows, mirrors and screens. Use with plain water or our glass cleaner.',
    priceCents: 1699,
    categoryId: 'glass-cleaning',
    images: productImages('glass-cleaning-cloths'),
    featured: true,
    inventory: 100,
    sku: 'ECO-GC-004',
    brand: 'EcoClean',
    weightLbs: 0.4,
    dimensions: { length: 14, width: 14, height: 1 },
  },
  {
    id: 'window-squeegee',
    name: 'Window Squeegee',
    description: 'A 12-inch squeegee with a replaceable rubber blade. Screws onto the Telescoping Extension Handle for high windows.',
    priceCents: 2199,
    categoryId: 'glass-cleaning',
    images: productImages('window-squeegee'),
    featured: false,
    inventory: 7,
    sku: 'ECO-GC-SQ1',
    weightLbs: 0.6,
  },
  {
    id: 'glass-cleaner-concentrate',
    name: 'Glass Cleaner Concentrate (8 oz)',
    description: 'A vinegar-based glass cleaner concentrate. Dilute it in a spray bottle of water for streak-free glass.',
    priceCents: 1199,
    categoryId: 'glass-cleaning',
    images: productImages('glass-cleaner-concentrate'),
    featured: false,
    inventory: 60,
    sku: 'ECO-GC-008',
    brand: 'EcoClean',
    weightLbs: 0.6,
  },

  // ---- Other (accessories) ----
  {
    id: 'handle-screws',
    name: 'Replacement Handle Screws (2-Pack)',
    description: 'Two stainless steel screws that join the handle sections of the Sweep & Mop Tool. Handy if one goes missing.',
    priceCents: 199,
    categoryId: 'accessories',
    images: productImages('handle-screws'),
    featured: false,
    inventory: 150,
    sku: 'ECO-AC-SCR',
    brand: 'EcoClean',
    weightLbs: 0.05,
  },
  {
    id: 'glass-spray-bottle',
    name: 'Glass Spray Bottle (16 oz)',
    description: 'A refillable amber glass spray bottle with an adjustable nozzle, made for mixing our concentrates.',
    priceCents: 999,
    categoryId: 'accessories',
    images: productImages('glass-spray-bottle'),
    featured: false,
    inventory: 55,
    weightLbs: 0.8,
    dimensions: { length: 3, width: 3, height: 10 },
  },
  {
    id: 'mesh-laundry-bag',
    name: 'Mesh Laundry Bag',
    description:
      'A zippered mesh bag that keeps cleaning cloths and mop pads together in the washing machine. Small holds a week of cloths; Large takes mop pads too.',
    priceCents: 699,
    categoryId: 'accessories',
    images: ['/images/products/mesh-laundry-bag.svg', '/images/products/mesh-laundry-bag-grey.svg'],
    featured: false,
    inventory: 80,
    sku: 'ECO-MB-BLU-S',
    brand: 'EcoClean',
    options: [
      { name: 'Colour', values: ['Blue', 'Grey'] },
      { name: 'Size', values: ['Small', 'Large'] },
    ],
    variants: [
      { options: ['Blue', 'Small'], priceCents: 699, sku: 'ECO-MB-BLU-S', inventory: 80 },
      { options: ['Blue', 'Large'], priceCents: 899, sku: 'ECO-MB-BLU-L', inventory: 45 },
      {
        options: ['Grey', 'Small'],
        priceCents: 699,
        sku: 'ECO-MB-GRY-S',
        inventory: 60,
        image: '/images/products/mesh-laundry-bag-grey.svg',
      },
      {
        options: ['Grey', 'Large'],
        priceCents: 899,
        sku: 'ECO-MB-GRY-L',
        inventory: 8,
        image: '/images/products/mesh-laundry-bag-grey.svg',
      },
    ],
  },

  // ---- Bundles ----
  {
    id: 'starter-bundle',
    name: 'Starter Bundle',
    description:
      'Everything to get started: the Sweep & Mop Tool, a 5-pack of cleaning cloths and a bottle of all-purpose cleaner concentrate, for less than buying them separately.',
    priceCents: 7499,
    categoryId: 'bundles',
    images: productImages('starter-bundle'),
    featured: true,
    inventory: 25,
    sku: 'ECO-BN-001',
    brand: 'EcoClean',
    weightLbs: 4,
    dimensions: { length: 30, width: 14, height: 6 },
  },
  {
    id: 'kitchen-bundle',
    name: 'Kitchen Bundle',
    description: 'A 5-pack of cleaning cloths, a solid dish soap block and a glass spray bottle for a low-waste kitchen.',
    priceCents: 3499,
    categoryId: 'bundles',
    images: productImages('kitchen-bundle'),
    featured: false,
    inventory: 30,
    sku: 'ECO-BN-002',
    brand: 'EcoClean',
    weightLbs: 2,
  },
  {
    id: 'whole-home-bundle',
    name: 'Whole Home Bundle',
    description:
      'The Sweep & Mop Tool with two extra refill pads, a 20-pack of cleaning cloths, glass cleaning cloths, laundry powder and all-purpose cleaner concentrate.',
    priceCents: 14999,
    categoryId: 'bundles',
    images: productImages('whole-home-bundle'),
    featured: false,
    inventory: 9,
    sku: 'ECO-BN-003',
    brand: 'EcoClean',
    weightLbs: 9,
    dimensions: { length: 30, width: 18, height: 10 },
  },
];

export const seedShippingOptions: SeedShippingOption[] = [
  {
    id: 'standard',
    name: 'Standard Shipping',
    description: 'Ground shipping with tracking.',
    priceCents: 599,
    estimatedDays: '5-7 business days',
    enabled: true,
    minimumOrderCents: null,
    sortOrder: 1,
  },
  {
    id: 'expedited',
    name: 'Expedited Shipping',
    description: 'Faster delivery with tracking.',
    priceCents: 1299,
    estimatedDays: '2-3 business days',
    enabled: true,
    minimumOrderCents: null,
    sortOrder: 2,
  },
  {
    id: 'overnight',
    name: 'Overnight Shipping',
    description: 'Fastest delivery with tracking.',
    priceCents: 2499,
    estimatedDays: 'Next business day',
    enabled: true,
    minimumOrderCents: null,
    sortOrder: 3,
  },
  {
    id: 'free',
    name: 'Free Shipping',
    description: 'Free ground shipping on orders of $50.00 or more.',
    priceCents: 0,
    estimatedDays: '7-10 business days',
    enabled: true,
    minimumOrderCents: 5000,
    sortOrder: 4,
  },
];

const SEED_VALID_FROM = '2025-01-01T00:00:00.000Z';
const SEED_FAR_FUTURE = '2030-12-31T23:59:59.000Z';

export const seedCoupons: SeedCoupon[] = [
  {
    id: 'coupon-seed-welcome10',
    code: 'WELCOME10',
    description: '10% off your order.',
    discountType: 'percentage',
    discountValue: 10,
    minOrderCents: null,
    maxUses: null,
    currentUses: 0,
    validFrom: SEED_VALID_FROM,
    validUntil: SEED_FAR_FUTURE,
    isActive: true,
    freeProductId: null,
  },
  {
    id: 'coupon-seed-save5',
    code: 'SAVE5',
    description: '$5.00 off your order.',
    discountType: 'fixed',
    discountValue: 500,
    minOrderCents: null,
    maxUses: null,
    currentUses: 0,
    validFrom: SEED_VALID_FROM,
    validUntil: null,
    isActive: true,
    freeProductId: null,
  },
  {
    id: 'coupon-seed-expired20',
    code: 'EXPIRED20',
    description: '20% off (expired promotion).',
    discountType: 'percentage',
    discountValue: 20,
    minOrderCents: null,
    maxUses: null,
    currentUses: 0,
    validFrom: '2024-01-01T00:00:00.000Z',
    validUntil: '2025-01-01T00:00:00.000Z',
    isActive: true,
    freeProductId: null,
  },
  {
    id: 'coupon-seed-big25',
    code: 'BIG25',
    description: '25% off orders of $100.00 or more.',
    discountType: 'percentage',
    discountValue: 25,
    minOrderCents: 10000,
    maxUses: null,
    currentUses: 0,
    validFrom: SEED_VALID_FROM,
    validUntil: SEED_FAR_FUTURE,
    isActive: true,
    freeProductId: null,
  },
  {
    id: 'coupon-seed-limited3',
    code: 'LIMITED3',
    description: '15% off, limited to the first 3 uses.',
    discountType: 'percentage',
    discountValue: 15,
    minOrderCents: null,
    maxUses: 3,
    currentUses: 0,
    validFrom: SEED_VALID_FROM,
    validUntil: SEED_FAR_FUTURE,
    isActive: true,
    freeProductId: null,
  },
  {
    id: 'coupon-seed-freegift',
    code: 'FREEGIFT',
    description: 'A free reusable cleaning cloth with your order.',
    discountType: 'percentage',
    discountValue: 0,
    minOrderCents: null,
    maxUses: null,
    currentUses: 0,
    validFrom: SEED_VALID_FROM,
    validUntil: SEED_FAR_FUTURE,
    isActive: true,
    freeProductId: 'cloth-1-pack',
  },
];

export const seedFaqs: SeedFaq[] = [
  {
    id: 'faq-1',
    question: 'How much does shipping cost?',
    // Filled in from the enabled shipping options when read (src/shared/shop-facts.ts).
    answer: '{{shipping_rates}}',
    category: 'Orders & Shipping',
    sortOrder: 1,
  },
  {
    id: 'faq-2',
    question: 'Do you charge sales tax?',
    // Filled in from the tax rule when read: tax on subtotal − discount + shipping (src/shared/shop-facts.ts).
    answer: 'Yes. {{tax_rule}}',
    category: 'Orders & Shipping',
    sortOrder: 2,
  },
  {
    id: 'faq-3',
    question: 'How can I track my order?',
    answer:
      'When your order ships with a carrier tracking number, we e-mail it to you with a link to follow the parcel. Some orders travel without one (a local delivery, for example); we still e-mail you when they ship. You can see the status of every order on the Orders page of your account.',
    category: 'Orders & Shipping',
    sortOrder: 3,
  },
  {
    id: 'faq-4',
    question: 'How do I wash the cleaning cloths?',
    answer:
      'Machine wash warm with a small amount of detergent and skip fabric softener, which coats the fibers and makes the cloths less absorbent. Tumble dry low or hang to dry.',
    category: 'Products',
    sortOrder: 4,
  },
  {
    id: 'faq-5',
    question: 'How long does a cleaning cloth last?',
    answer:
      'With normal use and regular washing, a cloth can be used and washed many times before it needs replacing. When it gets thin, it still makes a good rag for the garage or garden.',
    category: 'Products',
    sortOrder: 5,
  },
  {
    id: 'faq-6',
    question: 'How do I dilute the concentrated cleaner?',
    answer:
      'Add one capful of concentrate to a 16 oz spray bottle and fill the rest with water. For tougher jobs you can use a little more concentrate.',
    category: 'Products',
    sortOrder: 6,
  },
  {
    id: 'faq-7',
    question: 'What is your return policy?',
    answer:
      'Unused products in their original packaging can be returned within 30 days of delivery for a refund. Contact us with your order number and we will send return instructions.',
    category: 'Returns',
    sortOrder: 7,
  },
  {
    id: 'faq-8',
    question: 'What if my order arrives damaged?',
    answer:
      'E-mail us within 7 days of delivery with your order number and a photo of the damage, and we will send a replacement or issue a refund.',
    category: 'Returns',
    sortOrder: 8,
  },
  {
    id: 'faq-9',
    question: 'How do loyalty points work?',
    // Filled in from the loyalty rule when read: points go by the order total (src/shared/shop-facts.ts).
    answer: '{{loyalty_rule}}',
    category: 'Account',
    sortOrder: 9,
  },
  {
    id: 'faq-10',
    question: 'Do I need an account to place an order?',
    answer:
      'No, you can check out as a guest. Creating an account lets you see your order history, save your address and earn loyalty points.',
    category: 'Account',
    sortOrder: 10,
  },
];

export const seedSettings: SeedSetting[] = [
  { key: 'contact_email', value: 'hello@ecoclean.example', description: 'Public contact e-mail address.' },
  { key: 'contact_phone', value: '(555) 123-4567', description: 'Public contact phone number.' },
  { key: 'contact_hours', value: 'Mon-Fri, 9am-5pm EST', description: 'Customer service hours.' },
  {
    key: 'shop_postal_address',
    value: 'EcoClean\n12 Green Lane\nPortland, OR 97201',
    description: 'Postal address at the foot of offers and reminders.',
  },
  { key: 'social_media_facebook', value: '', description: 'Facebook page URL (leave empty to hide).' },
  { key: 'social_media_youtube', value: '', description: 'YouTube channel URL (leave empty to hide).' },
  { key: 'shipstation_api_key', value: '', description: 'ShipStation API key.' },
  { key: 'shipstation_api_secret', value: '', description: 'ShipStation API secret.' },
  { key: 'shipstation_enabled', value: 'false', description: 'Send paid orders to ShipStation (true/false).' },
  { key: 'shipstation_api_version', value: 'v2', description: 'ShipStation API version (v1 or v2).' },
  { key: 'power_automate_endpoint', value: '', description: 'Power Automate HTTP trigger URL for order notifications.' },
  { key: 'power_automate_enabled', value: 'false', description: 'Send order notifications to Power Automate (true/false).' },
  // No third-party video by default: the hero shows its picture until the owner sets a video.
  { key: 'hero_video_url', value: '', description: 'Embed URL of the video shown on the homepage (leave empty to hide).' },
  { key: 'homepage_hero_title', value: 'Clean Home, Less Waste', description: 'Homepage hero heading.' },
  {
    key: 'homepage_hero_subtitle',
    value: 'Reusable cleaning cloths and simple cleaners that work hard and last.',
    description: 'Homepage hero subheading.',
  },
  {
    key: 'homepage_hero_description',
    value:
      'Swap paper towels and single-use wipes for washable cloths, a refillable mop and concentrated cleaners. Less to throw away, less to buy again.',
    description: 'Homepage hero paragraph.',
  },
  { key: 'homepage_hero_image', value: '/images/hero.svg', description: 'Homepage hero image URL.' },
  { key: 'homepage_about_title', value: 'Why EcoClean?', description: 'Homepage about section heading.' },
  {
    key: 'homepage_about_description',
    value:
      'We started EcoClean because we were tired of filling the trash with paper towels and plastic bottles. Our products are made to be washed and used again, and our cleaners ship as concentrates so you are not paying to move water around.',
    description: 'Homepage about section paragraph.',
  },
  { key: 'homepage_about_image', value: '/images/about.svg', description: 'Homepage about section image URL.' },
  { key: 'about_title', value: 'About EcoClean', description: 'About page heading.' },
  { key: 'about_hero_image', value: '/images/about-hero.svg', description: 'About page hero image URL.' },
  { key: 'about_mission_title', value: 'Our Mission', description: 'About page mission heading.' },
  {
    key: 'about_mission_content',
    value:
      'Our mission is to make everyday cleaning simpler and less wasteful. We focus on a small range of products that do their job well and can be used again and again.\n\nWe would rather sell you one good cloth that lasts than a roll of something you throw away by Friday.',
    description: 'About page mission text.',
  },
  {
    key: 'about_mission_quote',
    value: 'The greenest product is the one you do not have to buy twice.',
    description: 'Quote shown in the mission section.',
  },
  { key: 'about_history_title', value: 'Our Story', description: 'About page history heading.' },
  {
    key: 'about_history_content',
    value:
      'EcoClean began at a kitchen table, with a stack of cloths we sewed and tested on our own counters, windows and floors. Friends asked for a few, then friends of friends, and a small shop grew from there.\n\nToday we are still a small team. We pack every order ourselves and read every message that comes in.',
    description: 'About page history text.',
  },
  { key: 'about_values_title', value: 'What We Value', description: 'About page values heading.' },
  {
    key: 'about_values_content',
    value:
      'We value products that last, honest descriptions and packaging you can recycle. If something is not right with your order, we want to hear about it and fix it.\n\nWe keep our range small on purpose, so each product gets the attention it deserves.',
    description: 'About page values text.',
  },
  { key: 'about_commitment_title', value: 'Our Commitment', description: 'About page commitment heading.' },
  {
    key: 'about_commitment_content',
    value:
      'We ship in recyclable cardboard and paper, without plastic air pillows. Our cleaners are sold as concentrates to cut down on packaging and shipping weight.\n\nWe keep looking for ways to reduce waste in how we make, pack and ship our products, and we welcome your ideas.',
    description: 'About page commitment text.',
  },
];
