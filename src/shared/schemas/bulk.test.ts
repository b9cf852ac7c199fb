import { describe, expect, it } from 'vitest';
import { BULK_MAX, BULK_MESSAGES, BulkOrderIdsInput, BulkOrderStatusInput, BulkProductInput } from './bulk.js';
import { AdminProductListQuery } from './admin/products.js';
import { NotificationSettingsInput } from './shop-notifications.js';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;
const over = Array.from({ length: BULK_MAX + 1 }, (_, i) => `id-${i}`);

describe('bulk schemas: each limit says so in its own words', () => {
  it('orders: none, too many, a bad id, no status, no notify choice', () => {
    expect(firstMessage(BulkOrderStatusInput.safeParse({ ids: [], status: 'shipped', notify: true }))).toBe(BULK_MESSAGES.noOrders);
    expect(firstMessage(BulkOrderStatusInput.safeParse({ status: 'shipped', notify: true }))).toBe(BULK_MESSAGES.noOrders);
    expect(firstMessage(BulkOrderStatusInput.safeParse({ ids: over, status: 'shipped', notify: true }))).toBe(BULK_MESSAGES.tooManyOrders);
    expect(BULK_MESSAGES.tooManyOrders).toBe('Select at most 100 orders at a time');
    expect(firstMessage(BulkOrderStatusInput.safeParse({ ids: [''], status: 'shipped', notify: true }))).toBe(BULK_MESSAGES.badId);
    expect(firstMessage(BulkOrderStatusInput.safeParse({ ids: ['a'.repeat(101)], status: 'shipped', notify: true }))).toBe(
      BULK_MESSAGES.badId,
    );
    expect(firstMessage(BulkOrderStatusInput.safeParse({ ids: ['a'], status: 'lost', notify: true }))).toBe(BULK_MESSAGES.status);
    expect(firstMessage(BulkOrderStatusInput.safeParse({ ids: ['a'], status: 'shipped' }))).toBe(BULK_MESSAGES.notify);
    expect(firstMessage(BulkOrderIdsInput.safeParse({ ids: over }))).toBe(BULK_MESSAGES.tooManyOrders);
  });

  it('orders: repeated ids count once, so a page selected twice is still one page', () => {
    const ids = [...Array.from({ length: BULK_MAX }, (_, i) => `o${i}`), 'o1'];
    expect(BulkOrderStatusInput.parse({ ids, status: 'shipped', notify: false }).ids).toHaveLength(BULK_MAX);
    expect(BulkOrderIdsInput.parse({ ids: ['a', 'b', 'a'] }).ids).toEqual(['a', 'b']);
  });

  it('products: none, too many, an unknown action, featured not a yes/no, a long category', () => {
    expect(firstMessage(BulkProductInput.safeParse({ action: 'delete', ids: [] }))).toBe(BULK_MESSAGES.noProducts);
    expect(firstMessage(BulkProductInput.safeParse({ action: 'delete', ids: over }))).toBe(BULK_MESSAGES.tooManyProducts);
    expect(firstMessage(BulkProductInput.safeParse({ action: 'paint', ids: ['a'] }))).toBe(BULK_MESSAGES.action);
    expect(firstMessage(BulkProductInput.safeParse({ action: 'featured', ids: ['a'], featured: 'yes' }))).toBe(BULK_MESSAGES.featured);
    expect(firstMessage(BulkProductInput.safeParse({ action: 'category', ids: ['a'], categoryId: 'c'.repeat(51) }))).toBe(
      BULK_MESSAGES.category,
    );
    expect(BulkProductInput.parse({ action: 'category', ids: ['a'], categoryId: null })).toEqual({
      action: 'category',
      ids: ['a'],
      categoryId: null,
    });
  });

  it("the Products tab's list: sort, search and category limits", () => {
    expect(firstMessage(AdminProductListQuery.safeParse({ sort: 'random' }))).toBe(
      'sort must be one of newest, name, price-asc, price-desc, stock-asc',
    );
    expect(firstMessage(AdminProductListQuery.safeParse({ category: 'c'.repeat(51) }))).toBe('category cannot exceed 50 characters');
    expect(firstMessage(AdminProductListQuery.safeParse({ search: 's'.repeat(101) }))).toBe('Search text cannot exceed 100 characters');
    expect(AdminProductListQuery.parse({ category: '', search: ' mop ', sort: 'price-desc' })).toMatchObject({
      category: undefined,
      search: 'mop',
      sort: 'price-desc',
    });
  });

  it('notification switches are yes or no', () => {
    expect(firstMessage(NotificationSettingsInput.safeParse({ shop_email_new_order: 'on', shop_email_contact_message: true }))).toBe(
      'shop_email_new_order must be true or false',
    );
    expect(firstMessage(NotificationSettingsInput.safeParse({ shop_email_new_order: true }))).toBe(
      'shop_email_contact_message must be true or false',
    );
  });
});
