import { describe, expect, it } from 'vitest';
import { inlineParameters, postgresLiteral } from './pg-commit-tail.js';

describe('values written into a statement (the COMMIT message and the BEGIN with a first statement)', () => {
  it('writes every value as an untyped literal, quotes and backslashes escaped', () => {
    expect(postgresLiteral(null)).toBe('null');
    expect(postgresLiteral(undefined)).toBe('null');
    expect(postgresLiteral(42)).toBe("'42'");
    expect(postgresLiteral(-3)).toBe("'-3'");
    expect(postgresLiteral(1.5)).toBe("'1.5'");
    expect(postgresLiteral(10n)).toBe("'10'");
    expect(postgresLiteral(true)).toBe("'true'");
    expect(postgresLiteral("O'Brien")).toBe("E'O''Brien'");
    expect(postgresLiteral('a\\b')).toBe("E'a\\\\b'");
    expect(postgresLiteral("\\'; drop table orders; --")).toBe("E'\\\\''; drop table orders; --'");
    expect(postgresLiteral(new Date('2026-11-27T10:00:00.000Z'))).toBe("E'2026-11-27T10:00:00.000Z'");
  });

  it('refuses what it cannot write safely', () => {
    expect(() => postgresLiteral('a\0b')).toThrow(/NUL/);
    expect(() => postgresLiteral(Number.NaN)).toThrow(/finite/);
    expect(() => postgresLiteral(Infinity)).toThrow(/finite/);
    expect(() => postgresLiteral(['a'])).toThrow(/no literal/);
    expect(() => postgresLiteral({ a: 1 })).toThrow(/no literal/);
    expect(() => postgresLiteral(Buffer.from('x'))).toThrow(/no literal/);
  });

  it('replaces placeholders past nine, and none inside quoted text or quoted names', () => {
    const values = Array.from({ length: 11 }, (_, i) => i + 1);
    expect(inlineParameters('select $1, $10, $11', values)).toBe("select '1', '10', '11'");
    expect(inlineParameters(`select '$1 and it''s $2', "col$1", $2 from t`, [1, 'x'])).toBe(
      `select '$1 and it''s $2', "col$1", E'x' from t`,
    );
    expect(() => inlineParameters('select $3', [1])).toThrow(/\$3 has no value/);
    expect(() => inlineParameters("select 'open", [])).toThrow(/unterminated/);
  });
});
