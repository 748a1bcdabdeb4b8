/**
 * BoundedCache: the least recently used out first once the estimated bytes pass the bound, the
 * entry just set kept whatever its size; `load` reads a key once for concurrent callers and keeps
 * no failure. Values are strings of known length, so every total below is worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../../src/shared/bounded-cache.js';

/** A cache whose values weigh their length in bytes. */
const cache = (maxBytes: number) => new BoundedCache<string, string>(maxBytes, (value) => value.length);

/** The keys kept, least recently used first, read without changing the order (a get of each, in that order, leaves it as it was). */
function keysOf(c: BoundedCache<string, string>, candidates: readonly string[]): string[] {
  return candidates.filter((key) => c.get(key) !== undefined);
}

describe('BoundedCache: get, set, delete, clear', () => {
  it('keeps values and counts their bytes', () => {
    const c = cache(10);
    c.set('a', 'aaaa');
    c.set('b', 'bbb');
    expect([c.size, c.bytes]).toEqual([2, 7]);
    expect(c.get('a')).toBe('aaaa');
    expect(c.get('b')).toBe('bbb');
    expect(c.get('z')).toBeUndefined();
  });

  it('keeps a total exactly at the bound; one byte past it drops the least recently used', () => {
    const c = cache(8);
    c.set('a', '1234');
    c.set('b', '5678');
    expect([c.size, c.bytes]).toEqual([2, 8]);
    c.set('c', 'x'); // 9 > 8: a, the least recently used, goes
    expect([c.size, c.bytes]).toEqual([2, 5]);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBe('5678');
    expect(c.get('c')).toBe('x');
  });

  it('drops only as many as it takes to be within the bound again', () => {
    const c = cache(10);
    c.set('a', '123');
    c.set('b', '456');
    c.set('c', '789'); // 9
    c.set('d', '0000'); // 13: a goes (10, exactly the bound): b and c stay
    expect(keysOf(c, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
    expect(c.bytes).toBe(10);
    c.set('e', '12345678'); // 18: b (15), c (12), d (8) go
    expect(keysOf(c, ['a', 'b', 'c', 'd', 'e'])).toEqual(['e']);
    expect([c.size, c.bytes]).toEqual([1, 8]);
  });

  it('a get makes an entry the most recently used', () => {
    const c = cache(8);
    c.set('a', '1234');
    c.set('b', '5678');
    expect(c.get('a')).toBe('1234'); // b is now the least recently used
    c.set('c', 'x');
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe('1234');
    expect(c.get('c')).toBe('x');
  });

  it('gets in any order leave the last one got the most recent, a run of one key included', () => {
    const c = cache(12);
    c.set('a', '1234');
    c.set('b', '5678');
    c.set('c', '9012');
    for (const key of ['c', 'a', 'a', 'c', 'b', 'b', 'a', 'a']) c.get(key);
    // Least recently used first: c, b, a.
    c.set('d', 'x'); // 13: c goes
    expect(c.get('c')).toBeUndefined();
    c.set('e', '1234'); // 9 + 4 = 13: b goes
    expect(keysOf(c, ['a', 'b', 'd', 'e'])).toEqual(['a', 'd', 'e']);
    // A key deleted while the most recent, then set again, is the most recent again.
    c.delete('e');
    c.set('e', '1234');
    c.set('f', '1234'); // 13: a goes
    expect(keysOf(c, ['a', 'd', 'e', 'f'])).toEqual(['d', 'e', 'f']);
    // The last key set, got after another: the most recent again.
    c.clear();
    c.set('a', '1234');
    c.set('b', '5678');
    c.get('a');
    c.get('b'); // a is now the least recently used
    c.set('c', '12345'); // 13: a goes
    expect(keysOf(c, ['a', 'b', 'c'])).toEqual(['b', 'c']);
    // A key got, then another set: the one got is no longer the most recent, and a get moves it again.
    c.clear();
    c.set('a', '1234');
    c.get('a');
    c.set('b', '5678');
    c.get('a'); // b is now the least recently used
    c.set('c', '12345'); // 13: b goes
    expect(keysOf(c, ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('a set of a kept key replaces the value, measures it again and makes it the most recently used', () => {
    const c = cache(8);
    c.set('a', '1234');
    c.set('b', '5678');
    c.set('a', '12'); // 6: a is now the most recently used
    expect([c.size, c.bytes]).toEqual([2, 6]);
    c.set('c', '123'); // 9: b goes, not a
    expect(keysOf(c, ['a', 'b', 'c'])).toEqual(['a', 'c']);
    expect(c.bytes).toBe(5);
  });

  it('keeps the entry just set whatever its size, alone, until the next one', () => {
    const c = cache(3);
    c.set('a', '1');
    c.set('big', 'large value'); // 12 > 3: a goes, big (11) stays alone
    expect(keysOf(c, ['a', 'big'])).toEqual(['big']);
    expect(c.bytes).toBe(11);
    c.set('b', '1'); // 12: big goes
    expect(keysOf(c, ['big', 'b'])).toEqual(['b']);
    expect(c.bytes).toBe(1);
    const none = cache(0);
    none.set('a', '1');
    expect(none.get('a')).toBe('1');
    none.set('b', '2');
    expect(keysOf(none, ['a', 'b'])).toEqual(['b']);
  });

  it('hands the key to the estimate', () => {
    const c = new BoundedCache<string, string>(10, (value, key) => key.length + value.length);
    c.set('abc', '12');
    c.set('de', '3');
    expect(c.bytes).toBe(8);
    c.set('f', '12'); // 11: abc goes
    expect(c.get('abc')).toBeUndefined();
    expect(c.bytes).toBe(6);
  });

  it('delete forgets one key and its bytes', () => {
    const c = cache(8);
    c.set('a', '1234');
    c.set('b', '5678');
    expect(c.delete('a')).toBe(true);
    expect(c.delete('a')).toBe(false);
    expect([c.size, c.bytes]).toEqual([1, 4]);
    c.set('c', '1234'); // 8: both kept
    expect(keysOf(c, ['b', 'c'])).toEqual(['b', 'c']);
  });

  it('clear forgets every value and their bytes: the whole bound is free again', () => {
    const c = cache(8);
    c.set('a', '1234');
    c.set('b', '5678');
    c.clear();
    expect([c.size, c.bytes]).toEqual([0, 0]);
    expect(c.get('a')).toBeUndefined();
    c.set('c', '1234');
    c.set('d', '5678'); // 8, not 16: both kept
    expect(keysOf(c, ['c', 'd'])).toEqual(['c', 'd']);
  });
});

describe('BoundedCache: load', () => {
  /** A cache of reads counted by key. */
  function loader(maxBytes: number) {
    const c = cache(maxBytes);
    const reads: string[] = [];
    const load = (key: string, value: string = '1234') => c.load(key, () => (reads.push(key), Promise.resolve(value)));
    return { c, reads, load };
  }

  it('reads a key once, also for concurrent callers, who share one promise', async () => {
    const { c, reads, load } = loader(10);
    const first = load('a', 'aaaa');
    const second = load('a', 'never');
    expect(second).toBe(first);
    expect(await Promise.all([first, second])).toEqual(['aaaa', 'aaaa']);
    expect(await load('a', 'never')).toBe('aaaa');
    expect(reads).toEqual(['a']);
    expect([c.size, c.bytes]).toEqual([1, 4]);
    // A value set by hand is a hit too.
    c.set('b', 'bb');
    expect(await load('b', 'never')).toBe('bb');
    expect(reads).toEqual(['a']);
  });

  it('keeps what it read within the bound, the least recently used out first; a hit makes it the most recent', async () => {
    const { reads, load } = loader(8);
    await load('a');
    await load('b'); // 8: both kept
    await load('a'); // a is now the most recently used
    expect(reads).toEqual(['a', 'b']);
    await load('c'); // 12: b goes
    await load('a');
    await load('c');
    expect(reads).toEqual(['a', 'b', 'c']);
    await load('b');
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('does not keep a failed read: every caller of it sees the failure, the next call reads again', async () => {
    const c = cache(8);
    let reads = 0;
    const failing = () => (reads++, Promise.reject(new Error('no')));
    const [first, second] = [c.load('a', failing), c.load('a', failing)];
    await expect(first).rejects.toThrow('no');
    await expect(second).rejects.toThrow('no');
    expect(reads).toBe(1);
    expect([c.size, c.bytes]).toEqual([0, 0]);
    expect(await c.load('a', () => (reads++, Promise.resolve('ok')))).toBe('ok');
    expect(reads).toBe(2);
    // A read that throws before it returns a promise is a failed read too.
    await expect(c.load('b', () => { throw new Error('at once'); })).rejects.toThrow('at once');
    expect(await c.load('b', () => Promise.resolve('ok'))).toBe('ok');
  });

  it('counts nothing of what it held before a clear, nor keeps a read that was under way then', async () => {
    const { c, reads, load } = loader(8);
    await load('a');
    await load('b');
    let finish: (value: string) => void = () => undefined;
    const slow = c.load('slow', () => new Promise<string>((resolve) => (finish = resolve)));
    c.clear();
    finish('123456');
    expect(await slow).toBe('123456');
    expect([c.size, c.bytes]).toEqual([0, 0]);
    // Two values of 4, exactly the bound, both kept (the 8 before the clear and the 6 read meanwhile count for nothing).
    await load('c');
    await load('d');
    await load('c');
    await load('d');
    expect(reads).toEqual(['a', 'b', 'c', 'd']);
    // The read under way at the clear was not kept.
    await load('slow');
    expect(reads).toEqual(['a', 'b', 'c', 'd', 'slow']);
  });

  it('does not keep a read under way when its key is deleted or set meanwhile', async () => {
    const c = cache(100);
    let finish: (value: string) => void = () => undefined;
    const slow = () => new Promise<string>((resolve) => (finish = resolve));
    const deleted = c.load('a', slow);
    c.delete('a');
    finish('old');
    expect(await deleted).toBe('old');
    expect(c.get('a')).toBeUndefined();
    const replaced = c.load('b', slow);
    c.set('b', 'new');
    finish('old');
    expect(await replaced).toBe('old');
    expect(c.get('b')).toBe('new');
    expect(c.bytes).toBe(3);
  });
});
