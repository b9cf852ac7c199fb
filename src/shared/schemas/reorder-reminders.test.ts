import { describe, expect, it } from 'vitest';
import { ProductEditForm } from './admin/products.js';
import { REORDER_MESSAGES } from './reorder-reminders.js';

describe("the product form's reminder to reorder (issue [7/8] item 4)", () => {
  const form = (reorderAfterDays?: string) => ({
    name: 'Refill',
    description: 'Powder',
    priceCents: '18.00',
    inventory: '',
    lowStockThreshold: '',
    category: '',
    featured: false,
    sku: '',
    brand: '',
    weightLbs: '',
    ...(reorderAfterDays === undefined ? {} : { reorderAfterDays }),
    dimensions: { length: '', width: '', height: '' },
    images: [],
  });

  it('sends whole days, null for an empty field, nothing without the field', () => {
    expect(ProductEditForm.parse(form('42')).reorderAfterDays).toBe(42);
    expect(ProductEditForm.parse(form(' ')).reorderAfterDays).toBeNull();
    expect('reorderAfterDays' in ProductEditForm.parse(form())).toBe(false);
  });

  it('refuses days outside 7–365, parts of a day and text with its sentence, at the field', () => {
    for (const bad of ['6', '366', '2.5', 'six']) {
      const r = ProductEditForm.safeParse(form(bad));
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['reorderAfterDays', REORDER_MESSAGES.days]]);
    }
  });
});
