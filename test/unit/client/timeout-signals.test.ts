/**
 * The per-attempt timeout hands `fetch` a signal that an earlier attempt, ended before its timer
 * fired, may have had too (making a signal is most of what a timeout costs). Whatever signal an
 * attempt gets, the timeout must mean what it says: a timer aborts its own attempt and no other,
 * a signal is in one attempt at a time, an attempt never starts with a signal already aborted,
 * and a timer is gone once its attempt has ended.
 */
import { describe, expect, it } from 'vitest';
import { AbortError, createClient, TimeoutError } from '../../../src/client/index.js';

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

const params = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;
const answer = () => new Response('{"meta":{},"data":[]}');
/** A fetch that answers only when its signal aborts: with the reason, as fetch rejects. */
const stall = (signal: AbortSignal) => new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client whose fetch records the signal of each attempt, not yet aborted when it starts. */
function recording(respond: (signal: AbortSignal, call: number) => Promise<Response>, timeout = 1_000) {
  const signals: AbortSignal[] = [];
  const fetch: Fetch = (_url, init) => {
    const signal = init.signal!;
    expect(signal.aborted).toBe(false);
    signals.push(signal);
    return respond(signal, signals.length);
  };
  const client = createClient({ apiKey: 'k', baseUrl: 'http://x', fetch: fetch as typeof globalThis.fetch, timeout, retry: false, validation: 'server' });
  return { client, signals };
}

const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('per-attempt timeout signals', () => {
  it('are handed on from one ended attempt to the next, but not to more than 10 attempts each', async () => {
    const { client, signals } = recording(async () => answer());
    for (let i = 0; i < 40; i++) await client.links(params);
    const uses = new Map<AbortSignal, number>();
    for (const signal of signals) uses.set(signal, (uses.get(signal) ?? 0) + 1);
    expect(uses.size).toBeLessThan(signals.length);
    expect(Math.max(...uses.values())).toBeLessThanOrEqual(10);
  });

  it('are in one attempt at a time: calls under way together have signals of their own', async () => {
    const release: (() => void)[] = [];
    const { client, signals } = recording(() => new Promise((resolve) => release.push(() => resolve(answer()))));
    const calls = Array.from({ length: 5 }, () => client.links(params));
    await wait(10);
    expect(new Set(signals).size).toBe(5);
    for (const done of release) done();
    await Promise.all(calls);
  });

  it('abort only their own attempt: a timeout beside a call that answers', async () => {
    const { client, signals } = recording((signal, call) => (call === 1 ? stall(signal) : wait(5).then(answer)), 50);
    const [slow, quick] = await Promise.all([rejection(client.links(params)), client.links(params)]);
    expect(slow).toBeInstanceOf(TimeoutError);
    expect(quick.format).toBe('json');
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
    // The aborted signal is not handed out again (recording() checks every attempt's signal).
    for (let i = 0; i < 20; i++) await client.links(params);
    expect(signals.slice(2)).not.toContain(signals[0]);
  });

  it('have no timer left once their attempt ended: after the timeout has passed, the next attempt answers', async () => {
    const { client, signals } = recording(async () => answer(), 30);
    await client.links(params);
    await wait(60);
    expect(signals[0]!.aborted).toBe(false);
    await client.links(params);
    expect(signals).toHaveLength(2);
  });

  it("leave the caller's abort an AbortError, and the next call unharmed", async () => {
    const { client } = recording((signal, call) => (call === 1 ? stall(signal) : Promise.resolve(answer())));
    const controller = new AbortController();
    const pending = rejection(client.links(params, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('user left')), 10);
    expect(await pending).toBeInstanceOf(AbortError);
    expect((await client.links(params)).format).toBe('json');
  });
});
