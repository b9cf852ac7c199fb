import { describe, expect, it } from 'vitest';
import { MicroCache } from './micro-cache.js';

describe('MicroCache', () => {
  it('builds once for concurrent callers and serves the string until it expires', async () => {
    const cache = new MicroCache<string>(50);
    let builds = 0;
    const build = async () => {
      builds++;
      await new Promise((r) => setTimeout(r, 10));
      return JSON.stringify({ n: builds });
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', build)));
    expect(new Set(answers)).toEqual(new Set(['{"n":1}']));
    expect(builds).toBe(1);
    expect(await cache.get('k', build)).toBe('{"n":1}');
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('k', build)).toBe('{"n":2}');
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
    const cache = new MicroCache<number>(20, 10, 1000);
    let builds = 0;
    const build = async () => {
      await new Promise((r) => setTimeout(r, 30));
      return ++builds;
    };
    expect(await cache.get('n', build)).toBe(1);
    await new Promise((r) => setTimeout(r, 30));
    const started = Date.now();
    const answers = await Promise.all([cache.get('n', build), cache.get('n', build), cache.get('n', build)]);
    expect(answers).toEqual([1, 1, 1]);
    expect(Date.now() - started).toBeLessThan(25);
    await new Promise((r) => setTimeout(r, 50));
    expect(await cache.get('n', build)).toBe(2);
    expect(builds).toBe(2);
  });

  it('does not answer a value older than its stale window', async () => {
    const cache = new MicroCache<number>(10, 10, 20);
    let builds = 0;
    expect(await cache.get('n', async () => ++builds)).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('n', async () => ++builds)).toBe(2);
  });
});
