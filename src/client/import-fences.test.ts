import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The client's rooms as eslint.config.js fences them (decision 0056): each admin tab imports only
 * the admin's shared parts, ui/, lib/ and src/shared; cart/ is the one feature others may import.
 * Linted with the project's own config, only its import rules (no type information needed).
 */
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' || ruleId === 'no-restricted-syntax',
  });
});

async function refused(filePath: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages.length ?? 0) > 0;
}

describe('client import fences', { timeout: 60_000 }, () => {
  it.each([
    ['src/client/admin/coupons/x.tsx', "import { a } from '../users/users-tab.js';"],
    ['src/client/admin/coupons/x.tsx', "import { a } from '../../admin/users/users-tab.js';"],
    ['src/client/admin/coupons/x.tsx', "const tab = import('../users/users-tab.js');"],
    ['src/client/admin/coupons/x.tsx', "import { a } from '../admin-page.js';"],
    ['src/client/admin/orders/x.tsx', "import { a } from '../products/products-tab.js';"],
    ['src/client/admin/products/sub/x.tsx', "import { a } from '../../orders/order-api.js';"],
    ['src/client/admin/components/x.tsx', "import { a } from '../shipstation/shipstation-tab.js';"],
    ['src/client/admin/api/x.ts', "import { a } from '../orders/order-api.js';"],
    ['src/client/admin/coupons/x.tsx', "import { a } from '../../catalog/api/get-products.js';"],
    ['src/client/admin/coupons/x.tsx', "import { a } from '../../../server/app.js';"],
    ['src/client/lib/x.ts', "import { a } from '../cart/cart-store.js';"],
    ['src/client/ui/x.tsx', "import { a } from '../cart/stock-fit.js';"],
    ['src/client/cart/x.ts', "import { a } from '../catalog/product-page.js';"],
    ['src/client/catalog/x.ts', "import { a } from '../checkout/checkout-page.js';"],
  ])('refuses %s: %s', async (file, code) => {
    expect(await refused(file, code)).toBe(true);
  });

  it.each([
    ['src/client/admin/coupons/x.tsx', "import { a } from '../api/admin-api.js';"],
    ['src/client/admin/coupons/x.tsx', "import { a } from '../components/admin-ui.js';"],
    ['src/client/admin/coupons/x.tsx', "import { a } from './coupon-dialog.js';"],
    ['src/client/admin/coupons/x.tsx', "import { a } from '../../ui/button.js';"],
    ['src/client/admin/coupons/x.tsx', "import { a } from '../../lib/format.js';"],
    ['src/client/admin/coupons/x.tsx', "import { a } from '../../../shared/schemas/admin/coupons.js';"],
    ['src/client/admin/products/sub/x.tsx', "import { a } from '../../components/admin-ui.js';"],
    ['src/client/admin/components/x.tsx', "import { a } from '../api/admin-api.js';"],
    ['src/client/admin/admin-page.tsx', "const tab = import('./coupons/coupons-tab.js');"],
    ['src/client/catalog/x.ts', "import { a } from '../cart/cart-store.js';"],
    ['src/client/layout/x.tsx', "import { a } from '../cart/saved-cart-sync.js';"],
    ['src/client/cart/x.ts', "import { a } from '../lib/api-client.js';"],
  ])('lets through %s: %s', async (file, code) => {
    expect(await refused(file, code)).toBe(false);
  });
});
