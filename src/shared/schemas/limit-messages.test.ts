import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as account from './account.js';
import * as accountSelfService from './account-self-service.js';
import * as adminCategories from './admin/categories.js';
import * as adminContent from './admin/content.js';
import * as adminCoupons from './admin/coupons.js';
import * as adminFields from './admin/fields.js';
import * as adminMessages from './admin/messages.js';
import * as adminOrderMoney from './admin/order-money.js';
import * as adminOrders from './admin/orders.js';
import * as adminProducts from './admin/products.js';
import * as adminShipping from './admin/shipping.js';
import * as adminUsers from './admin/users.js';
import * as adminVariants from './admin/variants.js';
import * as audit from './audit.js';
import * as auth from './auth.js';
import * as cartForms from './cart-forms.js';
import * as catalog from './catalog.js';
import * as checkout from './checkout.js';
import * as content from './content.js';
import * as inventory from './inventory.js';
import * as orders from './orders.js';
import * as paging from './paging.js';
import * as payments from './payments.js';

/**
 * Every limit in src/shared/schemas says its own sentence. A `.max()` without one falls back to the
 * field's message ("Name is required" under a 5,000-character name) or to zod's raw "Too big:
 * expected string to have <=200 characters"; this walks every exported schema and names each
 * limit that would.
 */
const MODULES = {
  account,
  accountSelfService,
  adminCategories,
  adminContent,
  adminCoupons,
  adminFields,
  adminMessages,
  adminOrderMoney,
  adminOrders,
  adminProducts,
  adminShipping,
  adminUsers,
  adminVariants,
  audit,
  auth,
  cartForms,
  catalog,
  checkout,
  content,
  inventory,
  orders,
  paging,
  payments,
} as Record<string, Record<string, unknown>>;

const LIMIT_CHECKS = new Set(['max_length', 'min_length', 'length_equals', 'less_than', 'greater_than', 'max_size', 'min_size']);

type Def = {
  type: string;
  checks?: { _zod: { def: { check: string; error?: (issue?: unknown) => unknown } } }[];
  error?: (issue?: unknown) => unknown;
  shape?: Record<string, Schema>;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  element?: Schema;
  options?: Schema[];
  items?: Schema[];
  rest?: Schema | null;
  left?: Schema;
  right?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  getter?: () => Schema;
};
type Schema = { _zod: { def: Def } };

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && '_zod' in v;
}

/** `message` of a check's or a type's own error, when it has one. */
function ownMessage(error: ((issue?: unknown) => unknown) | undefined): string | undefined {
  if (!error) return undefined;
  const out = error({ code: 'too_big', input: '' });
  if (typeof out === 'string') return out;
  if (out && typeof out === 'object' && 'message' in out && typeof out.message === 'string') return out.message;
  return undefined;
}

/** Each limit without a sentence of its own, or with a "required" one on its upper side, as `path: why`. */
export function limitsWithoutMessages(schema: Schema, path: string, seen = new Set<Schema>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def;
  const found: string[] = [];
  for (const c of def.checks ?? []) {
    const check = c._zod.def;
    if (!LIMIT_CHECKS.has(check.check)) continue;
    const message = ownMessage(check.error);
    if (message === undefined) found.push(`${path}: ${check.check} has no message`);
    else if (/too big|too small|expected/i.test(message)) found.push(`${path}: ${check.check} says "${message}"`);
    else if ((check.check === 'max_length' || check.check === 'less_than') && /required/i.test(message))
      found.push(`${path}: ${check.check} says "${message}"`);
  }
  const walk = (child: unknown, at: string) => {
    if (isSchema(child)) found.push(...limitsWithoutMessages(child, at, seen));
  };
  for (const [k, v] of Object.entries(def.shape ?? {})) walk(v, `${path}.${k}`);
  walk(def.innerType, path);
  walk(def.in, path);
  walk(def.out, path);
  walk(def.element, `${path}[]`);
  walk(def.left, path);
  walk(def.right, path);
  walk(def.keyType, `${path}{key}`);
  walk(def.valueType, `${path}{}`);
  walk(def.rest, `${path}[]`);
  (def.options ?? []).forEach((o, i) => walk(o, `${path}|${i}`));
  (def.items ?? []).forEach((o, i) => walk(o, `${path}[${i}]`));
  if (def.type === 'lazy' && def.getter) walk(def.getter(), path);
  return found;
}

function everySchema(): [string, Schema][] {
  const out: [string, Schema][] = [];
  for (const [mod, exports] of Object.entries(MODULES))
    for (const [name, value] of Object.entries(exports)) if (isSchema(value)) out.push([`${mod}.${name}`, value]);
  return out;
}

describe('every limit in src/shared/schemas has its own sentence', () => {
  it('walks a few hundred fields', () => {
    expect(everySchema().length).toBeGreaterThan(50);
  });

  it.each(everySchema())('%s', (_name, schema) => {
    expect(limitsWithoutMessages(schema, _name)).toEqual([]);
  });

  it('the walker notices a limit that would fall back (a test that cannot fail is a defect)', async () => {
    const { z: zod } = await import('zod');
    const bad = zod.object({ name: zod.string({ message: 'Name is required' }).min(1, 'Name is required').max(200) });
    expect(limitsWithoutMessages(bad as unknown as Schema, 'bad')).toEqual(['bad.name: max_length has no message']);
    const worse = zod.object({ name: zod.string().max(5, 'Name is required') });
    expect(limitsWithoutMessages(worse as unknown as Schema, 'worse')).toEqual(['worse.name: max_length says "Name is required"']);
  });
});

export type { z };
