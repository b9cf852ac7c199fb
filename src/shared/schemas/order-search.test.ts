import { describe, expect, it } from 'vitest';
import { ORDER_SEARCH_MESSAGES, OrderSearchText, orderSearchProblem } from './order-search.js';
import { AdminOrderExportQuery, AdminOrderListQuery } from './admin/orders.js';
import { GeneralSettingsInput, SHOP_RETURN_ADDRESS_TOO_LONG } from './content.js';

describe('order search text: each limit has its own sentence', () => {
  it('takes up to 100 characters and 5 words, trimmed; empty is no search', () => {
    expect(OrderSearchText.parse(`  ${'a'.repeat(100)}  `)).toBe('a'.repeat(100));
    expect(OrderSearchText.parse('lavender  cloth $12.34 astoria #15LUVMN4')).toBe('lavender  cloth $12.34 astoria #15LUVMN4');
    expect(OrderSearchText.parse('   ')).toBeUndefined();
    expect(orderSearchProblem('lavender')).toBeNull();
  });

  it('refuses 101 characters with "Search text cannot exceed 100 characters"', () => {
    expect(ORDER_SEARCH_MESSAGES.tooLong).toBe('Search text cannot exceed 100 characters');
    expect(orderSearchProblem('a'.repeat(101))).toBe(ORDER_SEARCH_MESSAGES.tooLong);
    expect(AdminOrderListQuery.safeParse({ search: 'x'.repeat(101) }).error?.issues[0]?.message).toBe(ORDER_SEARCH_MESSAGES.tooLong);
    expect(AdminOrderExportQuery.safeParse({ search: 'x'.repeat(101) }).error?.issues[0]?.message).toBe(ORDER_SEARCH_MESSAGES.tooLong);
  });

  it('refuses a sixth word with "Search can use at most 5 words"', () => {
    expect(ORDER_SEARCH_MESSAGES.tooManyWords).toBe('Search can use at most 5 words');
    expect(orderSearchProblem('a b c d e f')).toBe(ORDER_SEARCH_MESSAGES.tooManyWords);
    expect(orderSearchProblem('a b c d e')).toBeNull();
  });
});

describe("the shop's return address setting", () => {
  const general = { contact_email: '', contact_phone: '', contact_hours: '' };
  it('is optional, and at most 300 characters with its own sentence', () => {
    expect(GeneralSettingsInput.safeParse(general).success).toBe(true);
    expect(GeneralSettingsInput.parse({ ...general, shop_return_address: ' 1 Elm St\nSalem, OR ' }).shop_return_address).toBe(
      '1 Elm St\nSalem, OR',
    );
    const long = GeneralSettingsInput.safeParse({ ...general, shop_return_address: 'x'.repeat(301) });
    expect(long.error?.issues[0]?.message).toBe(SHOP_RETURN_ADDRESS_TOO_LONG);
    expect(SHOP_RETURN_ADDRESS_TOO_LONG).toBe('Return address cannot exceed 300 characters');
  });
});
