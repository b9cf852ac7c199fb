import { z } from 'zod';
import { UNIT_MESSAGES, UNIT_QUANTITY_LIMITS, UNITS } from '../../unit-price.js';
import { LowStockThreshold, MAX_STOCK_LEVEL } from '../inventory.js';
import { ProductOption } from '../catalog.js';
import { tooLong, tooMany } from '../limits.js';
import { money } from './fields.js';
import { SKU_MAX_LENGTH, SKU_MESSAGES, SkuField } from './products.js';

// A product's options and variants, as the variants editor and PUT /api/admin/products/:id/variants take them (decision 0036).

/** The largest number of options, values per option and variants a product can have (decision 0036). */
export const VARIANT_LIMITS = { options: 3, values: 20, variants: 100, optionName: 30, value: 40, sku: SKU_MAX_LENGTH } as const;

/** The texts of the variants editor, shared by its form and the server (PUT /api/admin/products/:id/variants). */
export const VARIANT_MESSAGES = {
  optionNameRequired: 'Give each option a name (e.g. Size or Colour)',
  optionNameTooLong: tooLong('An option name', VARIANT_LIMITS.optionName),
  optionNameTwice: (name: string) => `Two options are named "${name}": give each option its own name`,
  tooManyOptions: `A product can have at most ${VARIANT_LIMITS.options} options`,
  valuesRequired: 'Give each option at least one value',
  tooManyValues: `An option can have at most ${VARIANT_LIMITS.values} values`,
  valueRequired: 'An option value cannot be empty',
  valueTooLong: tooLong('An option value', VARIANT_LIMITS.value),
  valueTwice: (option: string, value: string) => `Option "${option}" lists "${value}" twice: each value once`,
  variantsRequired: 'A product needs at least one variant',
  tooManyVariants: `A product can have at most ${VARIANT_LIMITS.variants} variants`,
  valueCount: (count: number) =>
    count === 0
      ? 'This product has no options, so its variant takes no option values'
      : `Give each variant exactly one value for each of the ${count} option${count === 1 ? '' : 's'}, in the options' order`,
  notAValue: (option: string, value: string) => `"${value}" is not a value of option "${option}": add it to the option's values first`,
  combinationTwice: (label: string) =>
    label
      ? `${label} is listed twice: each combination of values can have one variant`
      : 'A product without options has exactly one variant: add an option to sell several',
  skuTooLong: SKU_MESSAGES.tooLong,
  skuTwice: (sku: string) => `SKU ${sku} is given to two variants: each variant needs its own SKU`,
  compareAtNotAbove: 'A compare-at price must be higher than the price (or left empty)',
  idTwice: (id: string) => `Variant ${id} is listed twice`,
  openingStock: 'Opening stock must be a whole number, 0 or more',
  openingTooLarge: tooMany('Opening stock', MAX_STOCK_LEVEL),
  /** 409: the SKU is another variant's, named with its product. */
  skuInUse: SKU_MESSAGES.inUse,
  notThisProduct: (id: string) =>
    `${id} is not a variant of this product (it may have been removed meanwhile): reload the product and try again`,
  imageNotInGallery: (image: string) => `${image} is not one of this product's images: add it to the gallery first, or choose another`,
  /** 409: a variant left out of the list that has history is kept. */
  sold: (label: string) => `${label} has been sold: switch it off instead`,
  moved: (label: string) => `${label} has stock history (units received, counted or taken): switch it off instead`,
  held: (label: string) => `${label} is in a shopper's checkout right now: switch it off instead`,
  /** The product form (PUT /api/admin/products/:id) of a product sold in several variants. */
  perVariant: 'Set prices and SKUs per variant',
  perVariantThreshold: 'Set low-stock thresholds per variant',
} as const;

const OptionValue = z
  .string({ message: VARIANT_MESSAGES.valueRequired })
  .trim()
  .min(1, VARIANT_MESSAGES.valueRequired)
  .max(VARIANT_LIMITS.value, VARIANT_MESSAGES.valueTooLong);

/** One option of a product: its name and its values, in the owner's order. */
export const ProductOptionInput = z
  .object({
    name: z
      .string({ message: VARIANT_MESSAGES.optionNameRequired })
      .trim()
      .min(1, VARIANT_MESSAGES.optionNameRequired)
      .max(VARIANT_LIMITS.optionName, VARIANT_MESSAGES.optionNameTooLong),
    values: z
      .array(OptionValue, { message: VARIANT_MESSAGES.valuesRequired })
      .min(1, VARIANT_MESSAGES.valuesRequired)
      .max(VARIANT_LIMITS.values, VARIANT_MESSAGES.tooManyValues),
  })
  .strict();
export type ProductOptionInput = z.infer<typeof ProductOptionInput>;

/**
 * One variant of the set: `id` for an existing one (it keeps its stock and history), none for a new
 * one (opened with `openingStock`). `options` holds one value per option, in the options' order.
 */
export const ProductVariantInput = z
  .object({
    id: z
      .string({ message: 'A variant id must be text' })
      .min(1, 'A variant id cannot be empty')
      .max(120, tooLong('A variant id', 120))
      .optional(),
    options: z
      .array(z.string({ message: VARIANT_MESSAGES.valueRequired }).trim().max(VARIANT_LIMITS.value, VARIANT_MESSAGES.valueTooLong), {
        message: 'options must be a list of option values',
      })
      .max(VARIANT_LIMITS.options, VARIANT_MESSAGES.tooManyOptions),
    sku: SkuField,
    priceCents: money('Price'),
    compareAtCents: money('Compare-at price')
      .nullish()
      .transform((v) => v ?? null),
    weightLbs: z
      .number({ message: 'Weight must be a number' })
      .min(0, 'Weight cannot be negative')
      .max(100_000, 'Weight cannot exceed 100,000 lbs')
      .nullish()
      .transform((v) => v ?? null),
    image: z
      .string({ message: 'An image must be an address' })
      .trim()
      .max(500, tooLong('An image address', 500))
      .nullish()
      .transform((v) => v || null),
    enabled: z.boolean({ message: 'enabled must be true or false' }),
    /** A new variant's first units (the ledger's opening row); ignored for an existing variant. */
    openingStock: z
      .number({ message: VARIANT_MESSAGES.openingStock })
      .int(VARIANT_MESSAGES.openingStock)
      .min(0, VARIANT_MESSAGES.openingStock)
      .max(MAX_STOCK_LEVEL, VARIANT_MESSAGES.openingTooLarge)
      .optional(),
    lowStockThreshold: LowStockThreshold.optional(),
    /** Its unit size (16 and 'oz'), for the price per unit; both or neither (decision 0043). */
    unitQuantity: z
      .number({ message: UNIT_MESSAGES.quantity })
      .positive(UNIT_MESSAGES.quantity)
      .max(UNIT_QUANTITY_LIMITS.max, UNIT_MESSAGES.quantityTooLarge)
      .refine((n) => Math.abs(n * 10 ** UNIT_QUANTITY_LIMITS.decimals - Math.round(n * 10 ** UNIT_QUANTITY_LIMITS.decimals)) < 1e-6, {
        message: UNIT_MESSAGES.quantityDecimals,
      })
      .nullish()
      .transform((v) => v ?? null),
    unit: z
      .enum(UNITS as [string, ...string[]], { message: UNIT_MESSAGES.unit })
      .nullish()
      .transform((v) => v ?? null),
  })
  .strict()
  .refine((v) => v.compareAtCents === null || v.compareAtCents > v.priceCents, {
    message: VARIANT_MESSAGES.compareAtNotAbove,
    path: ['compareAtCents'],
  })
  .refine((v) => (v.unitQuantity === null) === (v.unit === null), {
    message: UNIT_MESSAGES.both,
    path: ['unitQuantity'],
  });

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * PUT /api/admin/products/:id/variants: a product's whole set of options and variants, in the
 * owner's order. Every combination of values at most once, and only from the options' values; SKUs
 * unique within the set (the server checks the rest of the shop).
 */
export const ProductVariantsInput = z
  .object({
    options: z
      .array(ProductOptionInput, { message: 'options must be a list' })
      .max(VARIANT_LIMITS.options, VARIANT_MESSAGES.tooManyOptions),
    variants: z
      .array(ProductVariantInput, { message: VARIANT_MESSAGES.variantsRequired })
      .min(1, VARIANT_MESSAGES.variantsRequired)
      .max(VARIANT_LIMITS.variants, VARIANT_MESSAGES.tooManyVariants),
  })
  .strict()
  .superRefine((input, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    input.options.forEach((o, i) => {
      if (input.options.findIndex((x) => sameText(x.name, o.name)) !== i)
        issue(['options', i, 'name'], VARIANT_MESSAGES.optionNameTwice(o.name));
      o.values.forEach((v, j) => {
        if (o.values.findIndex((x) => sameText(x, v)) !== j) issue(['options', i, 'values', j], VARIANT_MESSAGES.valueTwice(o.name, v));
      });
    });
    const combinations = new Set<string>();
    const skus = new Set<string>();
    const ids = new Set<string>();
    input.variants.forEach((v, i) => {
      if (v.id !== undefined) {
        if (ids.has(v.id)) issue(['variants', i, 'id'], VARIANT_MESSAGES.idTwice(v.id));
        ids.add(v.id);
      }
      if (v.options.length !== input.options.length) {
        issue(['variants', i, 'options'], VARIANT_MESSAGES.valueCount(input.options.length));
        return;
      }
      const wrong = v.options.findIndex((value, k) => !input.options[k]!.values.includes(value));
      if (wrong >= 0) {
        issue(['variants', i, 'options', wrong], VARIANT_MESSAGES.notAValue(input.options[wrong]!.name, v.options[wrong]!));
        return;
      }
      const key = JSON.stringify(v.options);
      if (combinations.has(key)) issue(['variants', i, 'options'], VARIANT_MESSAGES.combinationTwice(v.options.join(', ')));
      combinations.add(key);
      if (v.sku) {
        if (skus.has(v.sku.toLowerCase())) issue(['variants', i, 'sku'], VARIANT_MESSAGES.skuTwice(v.sku));
        skus.add(v.sku.toLowerCase());
      }
    });
  });
export type ProductVariantsInput = z.output<typeof ProductVariantsInput>;

/** A variant's stock as the variants editor shows it (the inventory module's item). */
export const AdminVariantStock = z.object({
  itemId: z.string().optional(),
  onHand: z.number().int(),
  reserved: z.number().int(),
  available: z.number().int(),
  lowStockThreshold: z.number().int(),
  alertState: z.enum(['ok', 'low', 'out']),
});

/**
 * A variant as the back office sees it, switched off or not. `sold`: an order line names it (it can
 * be switched off, never removed); `removable`: it has no history at all (no sale, no movement
 * beyond its opening stock), so leaving it out of the set deletes it.
 */
export const AdminVariant = z.object({
  id: z.string(),
  options: z.array(z.string()),
  label: z.string(),
  sku: z.string().nullable(),
  priceCents: z.number().int(),
  compareAtCents: z.number().int().nullable(),
  weightLbs: z.number().nullable(),
  image: z.string().nullable(),
  enabled: z.boolean(),
  position: z.number().int(),
  unitQuantity: z.number().nullable(),
  unit: z.string().nullable(),
  stock: AdminVariantStock,
  sold: z.boolean(),
  removable: z.boolean(),
});
export type AdminVariant = z.infer<typeof AdminVariant>;

/** GET and PUT /api/admin/products/:id/variants: the product's options and all its variants, in the owner's order. */
export const AdminProductVariants = z.object({ options: z.array(ProductOption), variants: z.array(AdminVariant) });
export type AdminProductVariants = z.infer<typeof AdminProductVariants>;

/** A variant at or below its low-stock threshold, as a Products tab row lists it. */
export const AdminLowVariant = z.object({
  variantId: z.string(),
  label: z.string(),
  onHand: z.number().int(),
  threshold: z.number().int(),
  alertState: z.enum(['low', 'out']),
});
export type AdminLowVariant = z.infer<typeof AdminLowVariant>;
