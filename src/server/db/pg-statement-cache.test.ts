import { describe, expect, it } from 'vitest';
import { PreparedStatements } from './pg-statement-cache.js';

describe('prepared statements kept per connection', () => {
  it('keeps a text under one name, and evicts the one used longest ago when a new text needs room', () => {
    const cache = new PreparedStatements(2, 100);
    expect(cache.nameFor('a')).toEqual({ name: 's1', evicted: undefined });
    expect(cache.nameFor('b')).toEqual({ name: 's2', evicted: undefined });
    // 'a' used again: now 'b' is the oldest.
    expect(cache.nameFor('a')).toEqual({ name: 's1' });
    expect(cache.nameFor('c')).toEqual({ name: 's3', evicted: 's2' });
    expect(cache.size).toBe(2);
    // An evicted text comes back under a new name (node-pg would skip the Parse of a name it knows).
    expect(cache.nameFor('b')).toEqual({ name: 's4', evicted: 's1' });
    expect(cache.given).toBe(4);
  });

  it('runs long texts unnamed, and nothing named when it may keep none', () => {
    expect(new PreparedStatements(2, 5).nameFor('select 1')).toBeUndefined();
    expect(new PreparedStatements(0, 100).nameFor('a')).toBeUndefined();
  });

  it('forgets every text, and never gives a name twice', () => {
    const cache = new PreparedStatements(3, 100);
    cache.nameFor('a');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.nameFor('a')).toEqual({ name: 's2', evicted: undefined });
  });
});
