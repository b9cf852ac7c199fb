import { z } from 'zod';
import { toCents } from '../../../shared/money.js';
import {
  ProductVariantsInput,
  VARIANT_LIMITS,
  VARIANT_MESSAGES,
  type AdminProductVariants,
} from '../../../shared/schemas/admin/variants.js';
import { variantLabel } from '../../../shared/variants.js';

/*
 * The variants editor's rules, apart from its screen (decision 0036): a product's options (at most
 * three, each a name and its values) and one variant per combination the owner sells. The grid is
 * generated from the options: a value added offers the combinations it makes, a value or an option
 * removed takes its variants with it, unless one of them has history (a sale, a stock movement),
 * which can only be switched off. Nothing here talks to the server: the whole set is saved at once
 * (PUT /api/admin/products/:id/variants), and the server checks it again.
 */

/** The low-stock threshold a new variant starts with when no other variant gives one (the product form's default). */
export const DEFAULT_VARIANT_THRESHOLD = 10;

export type OptionDraft = { name: string; values: string[] };

/** One variant as the editor's inputs hold it: money in dollars and numbers as typed, named after the body's keys. */
export type VariantDraft = {
  /** The saved variant's id; '' for one not saved yet (it gets its id and stock item when saved). */
  variantId: string;
  /** One value per option, in the options' order ('' while that option has no value yet). */
  options: string[];
  sku: string;
  /** Dollars. */
  priceCents: string;
  /** Dollars ('' none): the higher "was" price the shop strikes through. */
  compareAtCents: string;
  weightLbs: string;
  /** Its unit size as typed ('' none) and unit ('' none): the shop shows its price per unit (decision 0043). */
  unitQuantity: string;
  unit: string;
  /** One of the product's images ('' the product's first). */
  image: string;
  enabled: boolean;
  /** A new variant's first units; an existing one's stock changes by adjustment only. */
  openingStock: string;
  lowStockThreshold: string;
};

export type VariantsDraft = { options: OptionDraft[]; variants: VariantDraft[] };

/** What the editor knows of a saved variant besides its fields: its stock and whether it may be removed. */
export type SavedVariant = AdminProductVariants['variants'][number];

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
const dollars = (cents: number | null | undefined) => (cents === null || cents === undefined ? '' : (cents / 100).toFixed(2));

/** The editor's starting point: the product's options and every variant, switched off ones too, in the owner's order. */
export function draftOf(set: AdminProductVariants): VariantsDraft {
  return {
    options: set.options.map((o) => ({ name: o.name, values: [...o.values] })),
    variants: set.variants.map((v) => ({
      variantId: v.id,
      options: set.options.map((_, i) => v.options[i] ?? ''),
      sku: v.sku ?? '',
      priceCents: dollars(v.priceCents),
      compareAtCents: dollars(v.compareAtCents),
      weightLbs: text(v.weightLbs),
      unitQuantity: text(v.unitQuantity),
      unit: v.unit ?? '',
      image: v.image ?? '',
      enabled: v.enabled,
      openingStock: '',
      lowStockThreshold: String(v.stock.lowStockThreshold),
    })),
  };
}

/** A variant's name in the editor: its values ('Lavender, 16 oz'), or "Default" for a product without options. */
export function draftLabel(values: readonly string[]): string {
  return variantLabel(values) || 'Default';
}

/** Every combination of the options' values, in their order (an option without values yet varies nothing). */
export function combinations(options: readonly OptionDraft[]): string[][] {
  return options.reduce<string[][]>(
    (combos, o) => combos.flatMap((c) => (o.values.length === 0 ? [[...c, '']] : o.values.map((v) => [...c, v]))),
    [[]],
  );
}

const key = (values: readonly string[]) => JSON.stringify(values);

/** The combinations no variant has yet: what "Create variants" offers. */
export function missingCombinations(draft: VariantsDraft): string[][] {
  const taken = new Set(draft.variants.map((v) => key(v.options)));
  return combinations(draft.options).filter((c) => !taken.has(key(c)));
}

/** The variants in the order of the options' values (the generated grid's order); one not among them keeps its place at the end. */
export function sortByCombination(draft: VariantsDraft): VariantsDraft {
  const order = new Map(combinations(draft.options).map((c, i) => [key(c), i]));
  const rank = (v: VariantDraft) => order.get(key(v.options)) ?? Number.MAX_SAFE_INTEGER;
  // Array.prototype.sort is stable: variants of equal rank keep the owner's order.
  return { ...draft, variants: [...draft.variants].sort((a, b) => rank(a) - rank(b)) };
}

/**
 * Adds a variant for every missing combination, its price, compare-at price, weight and threshold
 * taken from `template` (the first variant, so a new size starts at the product's price), with no
 * SKU, on sale and no opening stock.
 */
export function addMissingVariants(draft: VariantsDraft, template: VariantDraft | undefined = draft.variants[0]): VariantsDraft {
  const made = missingCombinations(draft).map((options): VariantDraft => ({
    variantId: '',
    options,
    sku: '',
    priceCents: template?.priceCents ?? '',
    compareAtCents: template?.compareAtCents ?? '',
    weightLbs: template?.weightLbs ?? '',
    unitQuantity: template?.unitQuantity ?? '',
    unit: template?.unit ?? '',
    image: '',
    enabled: true,
    openingStock: '0',
    lowStockThreshold: template?.lowStockThreshold || String(DEFAULT_VARIANT_THRESHOLD),
  }));
  return sortByCombination({ ...draft, variants: [...draft.variants, ...made] });
}

/** A new option, at the end, without a name or values yet (at most three). */
export function addOption(draft: VariantsDraft): VariantsDraft {
  if (draft.options.length >= VARIANT_LIMITS.options) return draft;
  return {
    options: [...draft.options, { name: '', values: [] }],
    variants: draft.variants.map((v) => ({ ...v, options: [...v.options, ''] })),
  };
}

/** Why a value cannot be added to an option, in the server's words; null when it can. */
export function valueProblem(option: OptionDraft, value: string): string | null {
  const v = value.trim();
  if (!v) return VARIANT_MESSAGES.valueRequired;
  if (v.length > VARIANT_LIMITS.value) return VARIANT_MESSAGES.valueTooLong;
  if (option.values.length >= VARIANT_LIMITS.values) return VARIANT_MESSAGES.tooManyValues;
  if (option.values.some((x) => x.toLowerCase() === v.toLowerCase())) return VARIANT_MESSAGES.valueTwice(option.name || 'this option', v);
  return null;
}

/**
 * Adds a value to option `index`. An option's first value goes to every variant (the product's
 * existing variants become its first combination, keeping their stock); a later value makes new
 * combinations, which are offered, not made (see missingCombinations).
 */
export function addValue(draft: VariantsDraft, index: number, value: string): VariantsDraft {
  const option = draft.options[index];
  if (!option || valueProblem(option, value)) return draft;
  const v = value.trim();
  const first = option.values.length === 0;
  return {
    options: draft.options.map((o, i) => (i === index ? { ...o, values: [...o.values, v] } : o)),
    variants: first ? draft.variants.map((x) => ({ ...x, options: x.options.map((o, i) => (i === index ? v : o)) })) : draft.variants,
  };
}

/** A saved variant that has history (sold, or stock moved beyond its opening): it can be switched off, never removed. */
function kept(v: VariantDraft, saved: ReadonlyMap<string, SavedVariant>): boolean {
  return v.variantId !== '' && saved.get(v.variantId)?.removable === false;
}

/** What removing a value (or an option) would do: the variants it takes away, and those of them that must stay. */
export type RemovalPlan = { removed: VariantDraft[]; blocked: VariantDraft[] };

/**
 * Removing value `value` of option `index`: its variants go with it, unless it is the option's only
 * value (then the option varies nothing again and no variant goes).
 */
export function planRemoveValue(draft: VariantsDraft, index: number, value: string, saved: ReadonlyMap<string, SavedVariant>): RemovalPlan {
  const option = draft.options[index];
  if (!option || option.values.length <= 1) return { removed: [], blocked: [] };
  const removed = draft.variants.filter((v) => v.options[index] === value);
  return { removed, blocked: removed.filter((v) => kept(v, saved)) };
}

export function removeValue(draft: VariantsDraft, index: number, value: string): VariantsDraft {
  const option = draft.options[index];
  if (!option) return draft;
  const options = draft.options.map((o, i) => (i === index ? { ...o, values: o.values.filter((x) => x !== value) } : o));
  if (option.values.length <= 1) {
    return { options, variants: draft.variants.map((v) => ({ ...v, options: v.options.map((o, i) => (i === index ? '' : o)) })) };
  }
  return { options, variants: draft.variants.filter((v) => v.options[index] !== value) };
}

/** Switches off every variant with value `value` of option `index` (what a sold variant allows instead of removing it). */
export function switchOffValue(draft: VariantsDraft, index: number, value: string): VariantsDraft {
  return { ...draft, variants: draft.variants.map((v) => (v.options[index] === value ? { ...v, enabled: false } : v)) };
}

/**
 * Removing option `index`: the variants that then share a combination become one, the first of
 * them kept (one with history before any other, since it cannot go). Two with history in one
 * combination block the removal.
 */
export function planRemoveOption(draft: VariantsDraft, index: number, saved: ReadonlyMap<string, SavedVariant>): RemovalPlan {
  const groups = new Map<string, VariantDraft[]>();
  for (const v of draft.variants) {
    const k = key(v.options.filter((_, i) => i !== index));
    groups.set(k, [...(groups.get(k) ?? []), v]);
  }
  const removed: VariantDraft[] = [];
  const blocked: VariantDraft[] = [];
  for (const group of groups.values()) {
    const stay = group.find((v) => kept(v, saved)) ?? group[0]!;
    const going = group.filter((v) => v !== stay);
    removed.push(...going);
    blocked.push(...going.filter((v) => kept(v, saved)));
  }
  return { removed, blocked };
}

export function removeOption(draft: VariantsDraft, index: number, saved: ReadonlyMap<string, SavedVariant>): VariantsDraft {
  const { removed } = planRemoveOption(draft, index, saved);
  const going = new Set(removed);
  return {
    options: draft.options.filter((_, i) => i !== index),
    variants: draft.variants.filter((v) => !going.has(v)).map((v) => ({ ...v, options: v.options.filter((_, i) => i !== index) })),
  };
}

/** A variant may leave the grid on its own when it has no history (a new one, or a saved one never sold nor moved). */
export function canRemoveVariant(v: VariantDraft, saved: ReadonlyMap<string, SavedVariant>): boolean {
  return !kept(v, saved);
}

/** '' → `empty`, else the number typed (NaN for junk, which the body schema refuses with its own words). */
function textToNumber<T>(value: string, empty: T): number | T {
  return value.trim() === '' ? empty : Number(value);
}

/** Dollars typed → cents; more than two decimals stays a fraction of a cent for the body schema to refuse (as shared/schemas/admin/fields.ts). */
function dollarsToCents<T>(value: string, empty: T): number | T {
  const n = textToNumber(value, empty);
  if (typeof n !== 'number' || !Number.isFinite(n)) return n;
  const cents = n * 100;
  return Math.abs(cents - toCents(n)) < 1e-6 ? toCents(n) : cents;
}

/**
 * The editor's form: what its inputs hold, mapped onto the body and parsed by the very schema the
 * server uses (ProductVariantsInput), so a field's message is the server's and lands on its input
 * (the form's arrays are in the body's order).
 */
export const VariantsForm = z
  .object({
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    variants: z.array(
      z.object({
        variantId: z.string(),
        options: z.array(z.string()),
        sku: z.string(),
        priceCents: z.string(),
        compareAtCents: z.string(),
        weightLbs: z.string(),
        unitQuantity: z.string(),
        unit: z.string(),
        image: z.string(),
        enabled: z.boolean(),
        openingStock: z.string(),
        lowStockThreshold: z.string(),
      }),
    ),
  })
  .transform((v): z.input<typeof ProductVariantsInput> => ({
    options: v.options,
    variants: v.variants.map((x) => ({
      ...(x.variantId ? { id: x.variantId } : { openingStock: textToNumber(x.openingStock, 0) }),
      options: x.options,
      sku: x.sku,
      priceCents: dollarsToCents(x.priceCents, NaN),
      compareAtCents: dollarsToCents(x.compareAtCents, null),
      weightLbs: textToNumber(x.weightLbs, null),
      unitQuantity: textToNumber(x.unitQuantity, null),
      unit: x.unit || null,
      image: x.image || null,
      enabled: x.enabled,
      lowStockThreshold: textToNumber(x.lowStockThreshold, undefined),
    })),
  }))
  .pipe(ProductVariantsInput);
export type VariantsForm = z.input<typeof VariantsForm>;
export type VariantsBody = z.output<typeof VariantsForm>;
