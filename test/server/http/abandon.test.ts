/**
 * Calls the client abandons, and calls a key cannot pay for, on a real listening server over the
 * real store of the run (embedded, SQLite, PostgreSQL or ClickHouse):
 *
 * - a call's slot among its key's calls at once is held until its work ends, not until its client
 *   leaves, and the work of an abandoned call is stopped (its signal reaches the store);
 * - an abandoned call logs one line, status 499 and `units: 0`;
 * - a call is charged in the store only after its answer was written (the answer arrives whole
 *   while the charge's write waits); hundreds of calls abandoned at seeded moments of their life
 *   leave the ledger equal to the charges the answers received carry;
 * - a call the key cannot pay for at its worst is refused before any query runs.
 *
 * Clients leave the way `fetch`'s abort or a closed terminal leaves: they close their side of the
 * connection (FIN), after which they can still read whatever the server had written before it saw
 * the close, so what a client received is known exactly.
 */
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { whenWritten } from '../../../src/server/routes/operation-route.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { callSignal, QueryCancelledError } from '../../../src/server/store/call-signal.js';
import type { Store } from '../../../src/server/store/store.js';
import { KEYS, NOW } from '../support/fixture.js';
import { BASE, fixtureStore, gatedFixtureStore, type TestStore } from '../support/helpers.js';

const ONE = { id: 'one', key: 'one-at-a-time-key', units: 1_000_000, concurrency: 1 };
const OVERVIEW = `${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`;
const REF_DOMAINS = `${BASE}/ref-domains?url=example.com&scope=ROOT_DOMAIN&limit=2`;

/** A request on its own connection; `leave()` closes the client's side (FIN) and resolves to every byte received before the server closed. */
function rawCall(server: RunningServer, path: string, key: string): { readonly answer: Promise<string>; leave(): Promise<string> } {
  const url = new URL(server.url);
  const socket = connect(Number(url.port), url.hostname);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Apikey ${key}\r\nConnection: close\r\n\r\n`);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const answer = new Promise<string>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
  return {
    answer,
    leave: () => {
      socket.end();
      return answer;
    },
  };
}

/** The status and the units charged of a raw answer, when a whole answer arrived. */
function parsed(raw: string): { status: number; units: number } | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = raw.slice(0, end);
  const length = /\r\ncontent-length: (\d+)/i.exec(head);
  if (!length || Buffer.byteLength(raw.slice(end + 4), 'latin1') < Number(length[1])) return undefined;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)![1]), units: Number(/\r\nx-units-charged: (\d+)/i.exec(head)?.[1] ?? 0) };
}

/** A server logging into `lines`, and a way to wait for a log line. */
async function serve(store: Store, extra: Partial<Parameters<typeof startServer>[0]> = {}) {
  const lines: Record<string, unknown>[] = [];
  const waiters: { test: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = [];
  const stream = new Writable({
    write: (chunk, _encoding, done) => {
      const line = JSON.parse(String(chunk)) as Record<string, unknown>;
      lines.push(line);
      for (const waiter of [...waiters]) if (waiter.test(line)) (waiters.splice(waiters.indexOf(waiter), 1), waiter.resolve(line));
      done();
    },
  });
  const server = await startServer({ store, keys: [...KEYS, ONE], now: () => NOW, port: 0, host: '127.0.0.1', logger: { level: 'info', stream }, ...extra });
  const logged = (test: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const seen = lines.find(test);
      if (seen) resolve(seen);
      else waiters.push({ test, resolve });
    });
  return { server, lines, logged };
}

const status = async (server: RunningServer, path: string, key = ONE.key) => (await fetch(`${server.url}${path}`, { headers: { authorization: `Apikey ${key}` } })).status;

describe('a call abandoned by its client', () => {
  it('keeps its slot until its work ends, and logs status 499 with units 0 then', async () => {
    // The store's overview cannot be stopped (as a SQLite statement already running): it waits for the gate.
    const real = await fixtureStore();
    let entered!: (signal: AbortSignal | undefined) => void;
    const inside = new Promise<AbortSignal | undefined>((resolve) => (entered = resolve));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const store: Store = { ...real, overview: async (target, clock) => (entered(callSignal()), await gate, real.overview(target, clock)) };
    const { server, logged } = await serve(store);
    try {
      const first = rawCall(server, OVERVIEW, ONE.key);
      const signal = await inside;
      expect(signal?.aborted).toBe(false);
      const aborted = new Promise((resolve) => signal!.addEventListener('abort', resolve));
      expect(await first.leave()).toBe('');
      await aborted; // the server has seen the client leave
      // Its work is still running: the key (one call at a time) has no free slot.
      expect(await status(server, REF_DOMAINS)).toBe(429);
      open();
      const line = await logged((l) => l['status'] === 499);
      expect(line).toMatchObject({ msg: 'request', operation: 'overview', key_id: 'one', status: 499, units: 0, abandoned: 'work stopped' });
      expect(await status(server, REF_DOMAINS)).toBe(200);
      await expect.poll(() => real.ledger.balance('one')).toBe(ONE.units - 80);
    } finally {
      await server.close();
    }
  });

  it('has its work stopped: the store sees the call\'s signal abort, and the slot is free once the work gives up', async () => {
    const real = await fixtureStore();
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    // Work that runs until its call is abandoned, as a query the engine cancels.
    const store: Store = {
      ...real,
      overview: () =>
        new Promise((_resolve, reject) => {
          callSignal()?.addEventListener('abort', () => reject(new QueryCancelledError()));
          entered();
        }),
    };
    const { server, logged } = await serve(store);
    try {
      const first = rawCall(server, OVERVIEW, ONE.key);
      await inside;
      await first.leave();
      expect(await logged((l) => l['status'] === 499)).toMatchObject({ key_id: 'one', units: 0, abandoned: 'work stopped' });
      expect(await status(server, REF_DOMAINS)).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('is charged in the store only after its answer was written', async () => {
    const { real, store, inside, release } = await gatedFixtureStore('charge');
    const { server } = await serve(store);
    try {
      const before = (await real.ledger.balance('one'))!;
      const call = rawCall(server, OVERVIEW, ONE.key);
      await inside; // the charge's write has begun, and waits
      // The whole answer arrives while the store has not taken a unit.
      expect(parsed(await call.answer)).toEqual({ status: 200, units: 45 });
      expect(await real.ledger.balance('one')).toBe(before);
      release();
      await expect.poll(() => real.ledger.balance('one'), { timeout: 5_000 }).toBe(before - 45);
    } finally {
      await server.close();
    }
  });
});

describe('a charge written after its answer', () => {
  it('is written for an answer handed over whole, not for one the connection closed on first (real HTTP)', async () => {
    const outcomes: boolean[] = [];
    const server = createServer((request, response) => {
      whenWritten(response, (written) => outcomes.push(written));
      if (request.url === '/whole') return void response.end('all of it');
      // Half an answer, and never the rest: the client leaves in the middle.
      response.writeHead(200, { 'content-length': '100' });
      response.write('part');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await (await fetch(`http://127.0.0.1:${port}/whole`)).text()).toBe('all of it');
      await expect.poll(() => outcomes).toEqual([true]);
      const socket = connect(port, '127.0.0.1');
      socket.write('GET /part HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await new Promise((resolve) => socket.once('data', resolve));
      socket.destroy();
      await expect.poll(() => outcomes).toEqual([true, false]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is written before the store closes when the server closes', async () => {
    const { real, store: gated, inside, release } = await gatedFixtureStore('charge');
    const order: string[] = [];
    const store: Store = {
      ...gated,
      ledger: {
        ...gated.ledger,
        charge: async (keyId, units) => {
          const result = await gated.ledger.charge(keyId, units);
          order.push('charge written');
          return result;
        },
      },
      close: async () => {
        order.push('store closed');
        await real.close();
      },
    };
    const { server } = await serve(store);
    const call = rawCall(server, OVERVIEW, ONE.key);
    expect(parsed(await call.answer)).toEqual({ status: 200, units: 45 });
    await inside; // the charge's write waits at the gate
    const closed = server.close();
    setTimeout(release, 100);
    await closed;
    expect(order).toEqual(['charge written', 'store closed']);
  });
});

describe('the ledger under calls abandoned at seeded moments', () => {
  it('equals the charges of the answers received, over 300 calls', async () => {
    const real = await fixtureStore();
    // Seeded delays inside the store spread each call's life over a few milliseconds (work, then
    // the charge, then the answer), so the seeded moments of leaving fall on every part of it.
    let seed = 0x5eed;
    const random = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
    const pause = () => new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 4)));
    const store: Store = {
      ...real,
      overview: async (target, clock) => (await pause(), real.overview(target, clock)),
      grouped: async (operation, query) => (await pause(), real.grouped(operation, query)),
      ledger: {
        ...real.ledger,
        charge: async (keyId, units) => {
          const result = await real.ledger.charge(keyId, units);
          await pause();
          return result;
        },
      },
    };
    const { server, lines } = await serve(store, { rateLimits: { perSecond: 100_000, concurrent: 100 } });
    const paths = [OVERVIEW, REF_DOMAINS, `${BASE}/links?url=example.com&scope=ROOT_DOMAIN&limit=3`, `${BASE}/anchors?url=example.com&scope=ROOT_DOMAIN`];
    try {
      const before = (await real.ledger.balance('tester'))!;
      let received = 0;
      let answered = 0;
      let unanswered = 0;
      const one = async () => {
        const call = rawCall(server, paths[Math.floor(random() * paths.length)]!, KEYS[0].key);
        const leaveAfter = random() < 0.15 ? undefined : random() * 12;
        const raw = leaveAfter === undefined ? await call.answer : await new Promise<string>((resolve) => setTimeout(() => resolve(call.leave()), leaveAfter));
        const answer = parsed(raw);
        if (answer) {
          expect(answer.status).toBe(200);
          received += answer.units;
          answered++;
        } else unanswered++;
      };
      for (let batch = 0; batch < 30; batch++) await Promise.all(Array.from({ length: 10 }, one));
      await expect.poll(() => real.ledger.balance('tester'), { timeout: 5_000 }).toBe(before - received);
      // Every call that reached the server logged one line once its work ended: 200 when answered,
      // 499 when its client had left (none left running, none logged twice).
      const byId = new Map<unknown, number>();
      for (const line of lines.filter((l) => l['msg'] === 'request')) byId.set(line['request_id'], (byId.get(line['request_id']) ?? 0) + 1);
      expect([...byId.values()].filter((n) => n !== 1)).toEqual([]);
      const statuses = lines.filter((l) => l['msg'] === 'request').map((l) => l['status']);
      expect(statuses.filter((s) => s === 200).length).toBe(answered);
      expect(statuses.every((s) => s === 200 || s === 499)).toBe(true);
      // No slot was kept: the key's 100 at once are all free again.
      const all = await Promise.all(Array.from({ length: 100 }, () => status(server, OVERVIEW, KEYS[0].key)));
      expect(all.filter((s) => s !== 200)).toEqual([]);
      // The moments fell on every part of a call's life: some answered, some not.
      expect(answered).toBeGreaterThan(10);
      expect(unanswered).toBeGreaterThan(10);
    } finally {
      await server.close();
    }
  });
});

describe('admission', () => {
  const counted = async (): Promise<{ store: Store; real: TestStore; reads: () => number }> => {
    const real = await fixtureStore();
    let reads = 0;
    const store: Store = {
      ...real,
      overview: (...args) => (reads++, real.overview(...args)),
      grouped: (...args) => (reads++, real.grouped(...args)),
      scoreProfile: (...args) => (reads++, real.scoreProfile(...args)),
      summary: (...args) => (reads++, real.summary(...args)),
      competitors: (...args) => (reads++, real.competitors(...args)),
      matrix: (...args) => (reads++, real.matrix(...args)),
      keywordMetrics: (...args) => (reads++, real.keywordMetrics(...args)),
    };
    return { store, real, reads: () => reads };
  };

  it('refuses a key that cannot pay for the most a call may cost, before any query runs', async () => {
    const { store, real, reads } = await counted();
    const server = await startServer({
      store,
      keys: [...KEYS, { id: 'empty', key: 'empty-key-0005', units: 0 }, { id: 'hundred', key: 'hundred-key-0006', units: 100 }],
      now: () => NOW,
      port: 0,
      host: '127.0.0.1',
    });
    try {
      const get = (path: string, key: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Apikey ${key}` } });
      const empty = await get(OVERVIEW, 'empty-key-0005');
      expect(empty.status).toBe(402);
      expect((await empty.json()).error.details).toEqual([expect.objectContaining({ rule: 'insufficient_units', required: 45, remaining: 0 })]);
      // links: 45 units a line; limit 3 may cost 135, more than 100; limit 2 at most 90.
      const three = await get(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&limit=3`, 'hundred-key-0006');
      expect(three.status).toBe(402);
      expect((await three.json()).error.details).toEqual([expect.objectContaining({ required: 135, remaining: 100 })]);
      expect(reads()).toBe(0);
      const two = await get(`${BASE}/links?url=example.com&scope=ROOT_DOMAIN&limit=2`, 'hundred-key-0006');
      expect(two.status).toBe(200);
      expect(two.headers.get('x-units-charged')).toBe('90'); // example.com has more than two links
      expect(reads()).toBe(1);
      // The charge is written a moment after the answer.
      await expect.poll(() => real.ledger.balance('hundred')).toBe(10);
    } finally {
      await server.close();
    }
  });

  it.each([
    // The interface's prices (per request, or per line) times its default limits (100; summary 12),
    // the number of urls, or score-profile's 101 score buckets (0 to 100).
    ['overview', `${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, 45],
    ['metrics', '/_api/apis/v4/keywords/v1/metrics?keyword=seo&country=US&month=2026-05', 20],
    ['links', `${BASE}/links?url=example.com&scope=ROOT_DOMAIN`, 45 * 100],
    ['ref-ips', `${BASE}/ref-ips?url=example.com&scope=ROOT_DOMAIN`, 20 * 100],
    ['summary', `${BASE}/summary?url=example.com&scope=ROOT_DOMAIN`, 40 * 12],
    ['score-profile', `${BASE}/score-profile?url=example.com&scope=ROOT_DOMAIN`, 101],
    ['competitors', `${BASE}/competitors?domain=example.com&limit=7`, 40 * 7],
    ['comparison', `${BASE}/comparison?urls=example.com,rival.com&scope=ROOT_DOMAIN`, 40 * 2],
    ['matrix', `${BASE}/matrix?urls=example.com,rival.com&scope=ROOT_DOMAIN`, 40 * 100],
  ])('asks %s for the most it can cost', async (_operation, path, required) => {
    const { store, reads } = await counted();
    const server = await startServer({ store, keys: [...KEYS, { id: 'empty', key: 'empty-key-0005', units: 0 }], now: () => NOW, port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${server.url}${path}`, { headers: { authorization: 'Apikey empty-key-0005' } });
      expect(response.status).toBe(402);
      expect((await response.json()).error.details).toEqual([expect.objectContaining({ rule: 'insufficient_units', required, remaining: 0 })]);
      expect(reads()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
