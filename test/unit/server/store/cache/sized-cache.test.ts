/** SizedCache: one read per key, least recently used dropped first past the bound, failures not kept. */
import { describe, expect, it } from 'vitest';
import { SizedCache } from '../../../../../src/server/store/cache/sized-cache.js';

describe('SizedCache', () => {
  it('reads a key once, also for concurrent callers, and drops the least recently used once the sizes pass the bound', async () => {
    const reads: string[] = [];
    const cache = new SizedCache<string>(10, (value) => value.length);
    const load = (key: string, value: string) => () => (reads.push(key), Promise.resolve(value));
    const [a, again] = await Promise.all([cache.get('a', load('a', 'aaaa')), cache.get('a', load('a', 'never'))]);
    expect([a, again]).toEqual(['aaaa', 'aaaa']);
    await cache.get('b', load('b', 'bbbb'));
    await cache.get('a', load('a', 'never')); // a is now the most recently used
    await cache.get('c', load('c', 'cccc')); // 12 > 10: b goes, a and c stay
    expect(reads).toEqual(['a', 'b', 'c']);
    await cache.get('a', load('a', 'never'));
    await cache.get('c', load('c', 'never'));
    await cache.get('b', load('b', 'bbbb'));
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps a value larger than the bound until the next one, and forgets a failed read', async () => {
    const cache = new SizedCache<string>(3, (value) => value.length);
    let reads = 0;
    const big = () => (reads++, Promise.resolve('large value'));
    await cache.get('big', big);
    await cache.get('big', big);
    expect(reads).toBe(1);
    await expect(cache.get('bad', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.get('bad', () => Promise.resolve('ok'))).toBe('ok');
    cache.clear();
    await cache.get('big', big);
    expect(reads).toBe(2);
  });

  it('keeps values whose sizes add up to exactly the bound, and drops the oldest one past it', async () => {
    const reads: string[] = [];
    const cache = new SizedCache<string>(8, (value) => value.length);
    const load = (key: string) => () => (reads.push(key), Promise.resolve('1234'));
    await cache.get('a', load('a'));
    await cache.get('b', load('b')); // 4 + 4 = 8: both kept
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    expect(reads).toEqual(['a', 'b']);
    await cache.get('c', load('c')); // 12: a, the least recently used, goes
    await cache.get('b', load('b'));
    await cache.get('c', load('c'));
    expect(reads).toEqual(['a', 'b', 'c']);
    await cache.get('a', load('a'));
    expect(reads).toEqual(['a', 'b', 'c', 'a']);
  });

  it('counts nothing of what it held before a clear, nor of a read that was under way then', async () => {
    const reads: string[] = [];
    const cache = new SizedCache<string>(8, (value) => value.length);
    const load = (key: string) => () => (reads.push(key), Promise.resolve('1234'));
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    let finish: (value: string) => void = () => undefined;
    const pending = cache.get('slow', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    finish('123456');
    expect(await pending).toBe('123456');
    // After the clear: two values of 4, exactly the bound, both kept (the 8 before it and the 6 read meanwhile count for nothing).
    await cache.get('c', load('c'));
    await cache.get('d', load('d'));
    await cache.get('c', load('c'));
    await cache.get('d', load('d'));
    expect(reads).toEqual(['a', 'b', 'c', 'd']);
    // The read under way at the clear is not kept either.
    await cache.get('slow', load('slow'));
    expect(reads).toEqual(['a', 'b', 'c', 'd', 'slow']);
  });
});
