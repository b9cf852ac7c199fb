import { describe, expect, it } from 'vitest';
import { MicroCache } from './micro-cache.js';

/** A clock the test moves by hand: expiry is tested without sleeping. */
function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** A build the test finishes when it chooses (`finish`), counting how often it started. */
function gatedBuild<T>(value: (n: number) => T) {
  let builds = 0;
  const gates: (() => void)[] = [];
  const build = () =>
    new Promise<T>((resolve) => {
      const n = ++builds;
      gates.push(() => resolve(value(n)));
    });
  return { build, builds: () => builds, finish: () => gates.splice(0).forEach((g) => g()) };
}

describe('MicroCache', () => {
  it('builds once for concurrent callers and serves the string until it expires', async () => {
    const clock = fakeClock();
    const cache = new MicroCache<string>(50, 1000, 0, false, clock.now);
    const b = gatedBuild((n) => JSON.stringify({ n }));
    const waiting = Promise.all(Array.from({ length: 20 }, () => cache.get('k', b.build)));
    b.finish();
    expect(new Set(await waiting)).toEqual(new Set(['{"n":1}']));
    expect(b.builds()).toBe(1);
    clock.advance(49);
    expect(await cache.get('k', b.build)).toBe('{"n":1}');
    clock.advance(1);
    const next = cache.get('k', b.build);
    b.finish();
    expect(await next).toBe('{"n":2}');
  });

  it('clear() drops entries and does not keep a value that was building during the clear', async () => {
    const cache = new MicroCache<string>(10_000);
    let release: () => void = () => undefined;
    const slow = cache.get('k', () => new Promise<string>((r) => (release = () => r('old'))));
    cache.clear();
    release();
    expect(await slow).toBe('old');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('keeps at most maxEntries keys and lets a failed build be retried', async () => {
    const cache = new MicroCache<string>(10_000, 3);
    for (const k of ['a', 'b', 'c', 'd']) await cache.get(k, async () => k);
    expect(cache.size).toBe(3);
    await expect(cache.get('x', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('x', async () => 'ok')).toBe('ok');
  });

  it('with stale-while-revalidate, answers the old value at once while one rebuild runs', async () => {
    const clock = fakeClock();
    const cache = new MicroCache<number>(20, 10, 1000, false, clock.now);
    const b = gatedBuild((n) => n);
    const first = cache.get('n', b.build);
    b.finish();
    expect(await first).toBe(1);
    clock.advance(30);
    // Past its life, within the stale window: the old value at once (the rebuild is still held).
    const answers = await Promise.all([cache.get('n', b.build), cache.get('n', b.build), cache.get('n', b.build)]);
    expect(answers).toEqual([1, 1, 1]);
    expect(b.builds()).toBe(2);
    b.finish();
    // The rebuild lands (a positive signal: the fresh value answered), and only one ran.
    await expect.poll(() => cache.get('n', b.build)).toBe(2);
    expect(b.builds()).toBe(2);
  });

  it('does not answer a value older than its stale window', async () => {
    const clock = fakeClock();
    const cache = new MicroCache<number>(10, 10, 20, false, clock.now);
    let builds = 0;
    expect(await cache.get('n', async () => ++builds)).toBe(1);
    clock.advance(29);
    expect(await cache.get('n', async () => ++builds)).toBe(1);
    clock.advance(1);
    expect(await cache.get('n', async () => ++builds)).toBe(2);
  });
});
