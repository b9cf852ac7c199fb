import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * payments/ owns payment_sessions (decision 0049): eslint.config.js refuses an insert, update or
 * delete of it anywhere else in src/server, as a Kysely builder call (with or without an alias) or a
 * raw `sql` template; reads stay open. Linted with the project's own config, only its syntax rule.
 */
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax',
  });
});

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages ?? []).map((m) => m.message);
}

const WRITES = [
  "db.updateTable('payment_sessions').set({ status: 'expired' });",
  "db.updateTable('payment_sessions as s').set({ status: 'expired' });",
  "trx.insertInto('payment_sessions').values(row);",
  'db.deleteFrom(`payment_sessions`);',
  "sql`update payment_sessions set status = 'expired' where id = ${id}`;",
  'sql`DELETE FROM "payment_sessions" WHERE id = ${id}`;',
  'sql`insert into payment_sessions (id) values (${id})`;',
];

describe('payment_sessions is written only by payments/', { timeout: 60_000 }, () => {
  it.each(['src/server/orders/x.ts', 'src/server/checkout/create/x.ts', 'src/server/inventory/x.ts', 'src/server/x.ts'])(
    'refuses every spelling of a write in %s',
    async (file) => {
      for (const code of WRITES) expect((await refusals(file, code)).join(), `${file}: ${code}`).toMatch(/src\/server\/payments/);
    },
  );

  it('lets payments write it, and anyone read it', async () => {
    for (const code of WRITES) expect(await refusals('src/server/payments/x.ts', code), code).toEqual([]);
    for (const file of ['src/server/orders/x.ts', 'src/server/checkout/x.ts']) {
      expect(await refusals(file, "db.selectFrom('payment_sessions as s').selectAll();")).toEqual([]);
      expect(await refusals(file, 'sql`select id from payment_sessions where order_id = ${id}`;')).toEqual([]);
    }
  });

  it('keeps the stock and catalogue owners as they were in payments/ too', async () => {
    expect((await refusals('src/server/payments/x.ts', "db.updateTable('stock_items').set(x);")).join()).toMatch(/inventory/);
    expect((await refusals('src/server/payments/x.ts', "db.insertInto('product_variants').values(x);")).join()).toMatch(/catalog/);
  });
});
