import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, retryWhileUnavailable } from './unavailable.js';

describe('isDatabaseUnavailable', () => {
  it('knows a lost, refused or refusing database by its code or node-pg’s words', () => {
    for (const err of [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('driver has already been destroyed'),
      new Error('Client has encountered a connection error and is not queryable'),
      new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], ''),
      new Error('could not commit', { cause: Object.assign(new Error('x'), { code: '08006' }) }),
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
    ]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    }
  });

  it('leaves everything else alone: a bug or a refused write is not "try again later"', () => {
    for (const err of [
      new Error('boom'),
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'Connection terminated',
      null,
      undefined,
    ]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
    }
  });
});

describe('retryWhileUnavailable', () => {
  it('runs the work again while the database is away, and gives its answer once it is back', async () => {
    let calls = 0;
    const result = await retryWhileUnavailable(
      async () => {
        if (++calls < 3) throw new Error('Connection terminated unexpectedly');
        return 'recorded';
      },
      { firstDelayMs: 1 },
    );
    expect(result).toBe('recorded');
    expect(calls).toBe(3);
  });

  it('does not retry any other failure, and gives up after its time', async () => {
    let calls = 0;
    await expect(
      retryWhileUnavailable(async () => {
        calls++;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(calls).toBe(1);
    const started = Date.now();
    await expect(
      retryWhileUnavailable(
        async () => {
          throw Object.assign(new Error('gone'), { code: '57P01' });
        },
        { forMs: 100, firstDelayMs: 10 },
      ),
    ).rejects.toThrow('gone');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
