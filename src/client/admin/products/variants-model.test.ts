import { describe, expect, it } from 'vitest';
import type { AdminProductVariants } from '../../../shared/schemas/admin/variants.js';
import { VARIANT_MESSAGES } from '../../../shared/schemas/admin/variants.js';
import { UNIT_MESSAGES } from '../../../shared/unit-price.js';
import {
  addMissingVariants,
  addOption,
  addValue,
  canRemoveVariant,
  combinations,
  draftOf,
  missingCombinations,
  planRemoveOption,
  planRemoveValue,
  removeOption,
  removeValue,
  switchOffValue,
  valueProblem,
  VariantsForm,
  type SavedVariant,
  type VariantsDraft,
} from './variants-model.js';

const stock = { onHand: 12, reserved: 0, available: 12, lowStockThreshold: 5, alertState: 'ok' as const };

function saved(id: string, options: string[], extra: Partial<SavedVariant> = {}): SavedVariant {
  return {
    id,
    options,
    label: options.join(', '),
    sku: `SKU-${id}`,
    priceCents: 1499,
    compareAtCents: null,
    weightLbs: null,
    image: null,
    enabled: true,
    position: 0,
    unitQuantity: null,
    unit: null,
    stock,
    sold: false,
    removable: true,
    ...extra,
  };
}

/** A product without options: its one variant, var_p1, sold once. */
const ONE: AdminProductVariants = { options: [], variants: [saved('var_p1', [], { sold: true, removable: false })] };
const known = (set: AdminProductVariants) => new Map(set.variants.map((v) => [v.id, v]));

/** Two options, Scent × Size, as the owner builds them on the product above. */
function scentBySize(): VariantsDraft {
  let d = draftOf(ONE);
  d = addOption(d);
  d = { ...d, options: d.options.map((o) => ({ ...o, name: 'Scent' })) };
  for (const v of ['Unscented', 'Lavender', 'Lemon']) d = addValue(d, 0, v);
  d = addOption(d);
  d = { ...d, options: d.options.map((o, i) => (i === 1 ? { ...o, name: 'Size' } : o)) };
  for (const v of ['16 oz', '32 oz']) d = addValue(d, 1, v);
  return d;
}

describe('the variants grid', () => {
  it('lists every combination in the order of the values; an option without values varies nothing', () => {
    expect(
      combinations([
        { name: 'Scent', values: ['A', 'B'] },
        { name: 'Size', values: ['S', 'L'] },
      ]),
    ).toEqual([
      ['A', 'S'],
      ['A', 'L'],
      ['B', 'S'],
      ['B', 'L'],
    ]);
    expect(
      combinations([
        { name: 'Scent', values: ['A'] },
        { name: '', values: [] },
      ]),
    ).toEqual([['A', '']]);
    expect(combinations([])).toEqual([[]]);
  });

  it('keeps the existing variant as the first combination when options are added, and offers the rest', () => {
    const d = scentBySize();
    // The product's own variant took the first value of each option: its id, SKU and price stay.
    expect(d.variants).toHaveLength(1);
    expect(d.variants[0]).toMatchObject({ variantId: 'var_p1', options: ['Unscented', '16 oz'], sku: 'SKU-var_p1', priceCents: '14.99' });
    expect(missingCombinations(d)).toEqual([
      ['Unscented', '32 oz'],
      ['Lavender', '16 oz'],
      ['Lavender', '32 oz'],
      ['Lemon', '16 oz'],
      ['Lemon', '32 oz'],
    ]);
    const all = addMissingVariants(d);
    expect(all.variants.map((v) => v.options.join(', '))).toEqual([
      'Unscented, 16 oz',
      'Unscented, 32 oz',
      'Lavender, 16 oz',
      'Lavender, 32 oz',
      'Lemon, 16 oz',
      'Lemon, 32 oz',
    ]);
    expect(all.variants[0]!.variantId).toBe('var_p1');
    // New ones copy the price and threshold of the first, start on sale with no SKU and no stock.
    expect(all.variants[3]).toMatchObject({
      variantId: '',
      sku: '',
      priceCents: '14.99',
      lowStockThreshold: '5',
      enabled: true,
      openingStock: '0',
    });
    expect(missingCombinations(all)).toEqual([]);
  });

  it('a value added later keeps every existing variant and offers only the new combinations', () => {
    const all = addMissingVariants(scentBySize());
    const withMint = addValue(all, 0, 'Mint');
    expect(withMint.variants).toEqual(all.variants);
    expect(missingCombinations(withMint)).toEqual([
      ['Mint', '16 oz'],
      ['Mint', '32 oz'],
    ]);
    const grown = addMissingVariants(withMint);
    expect(grown.variants).toHaveLength(8);
    expect(grown.variants.slice(0, 6)).toEqual(all.variants);
  });

  it('refuses an empty, repeated or too long value in the server’s words', () => {
    const option = { name: 'Scent', values: ['Lemon'] };
    expect(valueProblem(option, '  ')).toBe(VARIANT_MESSAGES.valueRequired);
    expect(valueProblem(option, 'lemon')).toBe(VARIANT_MESSAGES.valueTwice('Scent', 'lemon'));
    expect(valueProblem(option, 'x'.repeat(41))).toBe(VARIANT_MESSAGES.valueTooLong);
    expect(valueProblem(option, 'Mint')).toBeNull();
    const d = scentBySize();
    expect(addValue(d, 0, 'lemon')).toBe(d);
  });

  it('removing a value takes its variants away, unless one has history: then it can only be switched off', () => {
    const all = addMissingVariants(scentBySize());
    const savedSet = known(ONE);
    // Lemon's variants are new: removing it takes both.
    const lemon = planRemoveValue(all, 0, 'Lemon', savedSet);
    expect(lemon.removed.map((v) => v.options.join(', '))).toEqual(['Lemon, 16 oz', 'Lemon, 32 oz']);
    expect(lemon.blocked).toEqual([]);
    const without = removeValue(all, 0, 'Lemon');
    expect(without.options[0]!.values).toEqual(['Unscented', 'Lavender']);
    expect(without.variants).toHaveLength(4);
    // Unscented holds var_p1, which was sold.
    const unscented = planRemoveValue(all, 0, 'Unscented', savedSet);
    expect(unscented.blocked.map((v) => v.variantId)).toEqual(['var_p1']);
    const off = switchOffValue(all, 0, 'Unscented');
    expect(off.variants.filter((v) => !v.enabled).map((v) => v.options.join(', '))).toEqual(['Unscented, 16 oz', 'Unscented, 32 oz']);
    expect(off.options).toEqual(all.options);
    expect(canRemoveVariant(all.variants[0]!, savedSet)).toBe(false);
    expect(canRemoveVariant(all.variants[1]!, savedSet)).toBe(true);
  });

  it('removing an option’s only value keeps every variant (the option varies nothing again)', () => {
    let d = addOption(draftOf(ONE));
    d = addValue(d, 0, 'Large');
    expect(planRemoveValue(d, 0, 'Large', known(ONE))).toEqual({ removed: [], blocked: [] });
    const back = removeValue(d, 0, 'Large');
    expect(back.variants).toHaveLength(1);
    expect(back.variants[0]!.options).toEqual(['']);
    expect(addValue(back, 0, 'Small').variants[0]!.options).toEqual(['Small']);
  });

  it('removing an option merges the variants that then match, keeping the one with history', () => {
    const all = addMissingVariants(scentBySize());
    const savedSet = known(ONE);
    const plan = planRemoveOption(all, 1, savedSet);
    // Each scent keeps its 16 oz variant (var_p1 for Unscented); the 32 oz ones go.
    expect(plan.removed.map((v) => v.options.join(', '))).toEqual(['Unscented, 32 oz', 'Lavender, 32 oz', 'Lemon, 32 oz']);
    expect(plan.blocked).toEqual([]);
    const left = removeOption(all, 1, savedSet);
    expect(left.options.map((o) => o.name)).toEqual(['Scent']);
    expect(left.variants.map((v) => v.options)).toEqual([['Unscented'], ['Lavender'], ['Lemon']]);
    expect(left.variants[0]!.variantId).toBe('var_p1');
    // Two sold variants in one combination cannot be merged.
    const bothSold = new Map([
      ['var_p1', saved('var_p1', [], { removable: false })],
      ['var_b', saved('var_b', [], { removable: false })],
    ]);
    const twoSold: VariantsDraft = {
      ...all,
      variants: all.variants.map((v, i) => (i === 1 ? { ...v, variantId: 'var_b' } : v)),
    };
    expect(planRemoveOption(twoSold, 1, bothSold).blocked.map((v) => v.variantId)).toEqual(['var_b']);
  });

  it('the form maps dollars and typed numbers onto the server’s body, and the server’s schema speaks for each field', () => {
    const all = addMissingVariants(scentBySize());
    const draft: VariantsDraft = {
      ...all,
      variants: all.variants.map((v, i) => ({
        ...v,
        sku: `CL-${i}`,
        compareAtCents: i === 1 ? '29.98' : '',
        weightLbs: i === 1 ? '2.2' : '',
        unitQuantity: i === 1 ? '32' : '',
        unit: i === 1 ? 'oz' : '',
      })),
    };
    const body = VariantsForm.parse(draft);
    expect(body.options).toEqual([
      { name: 'Scent', values: ['Unscented', 'Lavender', 'Lemon'] },
      { name: 'Size', values: ['16 oz', '32 oz'] },
    ]);
    // The saved variant keeps its id and sends no opening stock; a new one has no id and its opening stock.
    expect(body.variants[0]).toEqual({
      id: 'var_p1',
      options: ['Unscented', '16 oz'],
      sku: 'CL-0',
      priceCents: 1499,
      compareAtCents: null,
      weightLbs: null,
      image: null,
      enabled: true,
      lowStockThreshold: 5,
      unitQuantity: null,
      unit: null,
    });
    expect(body.variants[1]).toMatchObject({
      options: ['Unscented', '32 oz'],
      compareAtCents: 2998,
      weightLbs: 2.2,
      openingStock: 0,
      unitQuantity: 32,
      unit: 'oz',
    });
    expect(body.variants[1]).not.toHaveProperty('id');

    const bad = VariantsForm.safeParse({
      ...draft,
      variants: draft.variants.map((v, i) => (i === 3 ? { ...v, priceCents: '10.555' } : i === 4 ? { ...v, compareAtCents: '1' } : v)),
    });
    expect(bad.success).toBe(false);
    const issues = bad.error!.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toContainEqual(['variants.3.priceCents', 'Price must be in whole cents (at most 2 decimals)']);
    expect(issues).toContainEqual(['variants.4.compareAtCents', VARIANT_MESSAGES.compareAtNotAbove]);
    // A unit size without its unit (or a typed word) is refused on its field, in the server's words.
    const unitless = VariantsForm.safeParse({
      ...draft,
      variants: draft.variants.map((v, i) =>
        i === 2 ? { ...v, unitQuantity: '16' } : i === 3 ? { ...v, unitQuantity: 'x', unit: 'oz' } : v,
      ),
    });
    const unitIssues = unitless.error!.issues.map((i) => [i.path.join('.'), i.message]);
    expect(unitIssues).toContainEqual(['variants.2.unitQuantity', UNIT_MESSAGES.both]);
    expect(unitIssues).toContainEqual(['variants.3.unitQuantity', UNIT_MESSAGES.quantity]);
    // The rules across variants speak once every variant's own fields are right.
    const twice = VariantsForm.safeParse({ ...draft, variants: draft.variants.map((v, i) => (i === 2 ? { ...v, sku: 'cl-0' } : v)) });
    expect(twice.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['variants.2.sku', VARIANT_MESSAGES.skuTwice('cl-0')]]);
  });

  it('an option without a name or values is refused before anything is sent', () => {
    const d = addOption(draftOf(ONE));
    const bad = VariantsForm.safeParse(d);
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => [i.path.join('.'), i.message]);
    expect(paths).toContainEqual(['options.0.name', VARIANT_MESSAGES.optionNameRequired]);
    expect(paths).toContainEqual(['options.0.values', VARIANT_MESSAGES.valuesRequired]);
  });
});
