import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A rolling deploy runs old and new processes on one database for a while (docs/operations.md,
 * "Several machines"): the new processes migrate, the old ones must keep working. So a migration's
 * `up` only adds; dropping or renaming what the previous release reads comes a release later, on a
 * line (or the line before it) that says so with `contract:` and names that release.
 */
const DESTRUCTIVE = [
  /\bdrop(Table|Column|Constraint)\s*\(/,
  /\b(renameColumn|renameTo|modifyColumn|setDataType)\s*\(/,
  /\bdrop\s+(table|column|constraint)\b/i,
  /\brename\s+(column|to)\b/i,
  /\balter\s+column\s+\S+\s+(type|set\s+not\s+null)\b/i,
];

/** The destructive lines of a migration's `up` (its source up to `down`), without a `contract:` note. */
function destructiveLines(source: string): string[] {
  const up = source.slice(source.indexOf('function up'), source.includes('function down') ? source.indexOf('function down') : undefined);
  const lines = up.split('\n');
  return lines.filter((line, i) => DESTRUCTIVE.some((re) => re.test(line)) && !/contract:/.test(`${lines[i - 1] ?? ''}\n${line}`));
}

/** Migrations before this one were written for one process and may contract freely. */
const FIRST_ROLLING = 54;

describe('migrations keep the previous release working', () => {
  it('finds what a rolling deploy cannot take, and lets a noted contract through', () => {
    const src = (body: string) =>
      `export async function up(db) {\n${body}\n}\nexport async function down(db) {\n  await db.schema.dropTable('x').execute();\n}`;
    expect(destructiveLines(src("  await db.schema.alterTable('orders').dropColumn('notes').execute();"))).toHaveLength(1);
    expect(destructiveLines(src("  await db.schema.alterTable('orders').renameColumn('a', 'b').execute();"))).toHaveLength(1);
    expect(destructiveLines(src('  await sql`alter table orders drop column notes`.execute(db);'))).toHaveLength(1);
    expect(destructiveLines(src('  await sql`ALTER TABLE orders ALTER COLUMN total TYPE bigint`.execute(db);'))).toHaveLength(1);
    expect(destructiveLines(src("  await db.schema.dropTable('old_carts').execute();"))).toHaveLength(1);
    // Adding, and the `down` that undoes it, are fine.
    expect(destructiveLines(src("  await db.schema.alterTable('orders').addColumn('note', 'text').execute();"))).toEqual([]);
    expect(destructiveLines(src("  await db.schema.createIndex('x').ifNotExists().on('orders').column('a').execute();"))).toEqual([]);
    // A contract names the release that stopped using it.
    expect(
      destructiveLines(src("  // contract: unused since 2027.01 (decision 0070)\n  await db.schema.dropTable('old_carts').execute();")),
    ).toEqual([]);
  });

  it('every migration from 0054 on only adds, or says which release stopped using what it removes', () => {
    const dir = path.join(import.meta.dirname, 'migrations');
    const found = fs
      .readdirSync(dir)
      .filter((f) => /^\d{4}-.*\.ts$/.test(f) && Number(f.slice(0, 4)) >= FIRST_ROLLING)
      .flatMap((f) => destructiveLines(fs.readFileSync(path.join(dir, f), 'utf8')).map((line) => `${f}: ${line.trim()}`));
    expect(found).toEqual([]);
    // The rule is live: the migrations before it did contract, and the checker sees that.
    const before = fs.readdirSync(dir).filter((f) => /^\d{4}-.*\.ts$/.test(f) && Number(f.slice(0, 4)) < FIRST_ROLLING);
    expect(before.some((f) => destructiveLines(fs.readFileSync(path.join(dir, f), 'utf8')).length > 0)).toBe(true);
  });
});
