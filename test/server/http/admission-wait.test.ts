/**
 * A client that leaves while its call's admission is decided: with `serve --workers` the worker
 * asks its primary, a round trip in which the client may go (issue 48, item 3: such calls kept
 * their slots for good and logged nothing). Here in one process, over real HTTP and the real
 * accounts, with admissions that wait until the test lets them through. What must happen is
 * docs/server.md's "Calls abandoned by the client": the slot is the key's again as soon as the
 * admission comes, no work runs, and the call logs one line with status 499.
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { localAccounts, type Accounts } from '../../../src/server/accounts/accounts.js';
import { startServer } from '../../../src/server/server.js';
import { NOW } from '../support/fixture.js';
import { BASE, fixtureStore } from '../support/helpers.js';

describe('a client that leaves while its admission is decided', () => {
  /**
   * A server whose admissions wait until the test lets each through, as a worker's wait for its
   * primary (`serve --workers`); the accounts underneath are the real ones, on a clock that stands
   * still (every call falls in one second). Counts the store's overview reads and keeps the log.
   */
  async function waitingServer() {
    const store = await fixtureStore();
    let reads = 0;
    const counted = { ...store, overview: (...args: Parameters<typeof store.overview>) => (reads++, store.overview(...args)) };
    const real = localAccounts(store.ledger, () => 0);
    const waiting: (() => void)[] = [];
    let arrived: () => void = () => undefined;
    const accounts: Accounts = {
      ...real,
      admit: async (keyId, limits) => {
        await new Promise<void>((resolve) => (waiting.push(resolve), arrived()));
        return real.admit(keyId, limits);
      },
    };
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) });
    const keys = [
      { id: 'one', key: 'one-at-a-time-key', units: 1_000_000, concurrency: 1 },
      { id: 'once', key: 'once-a-second-key', units: 1_000_000, rate: 1 },
    ];
    const server = await startServer({ store: counted, keys, now: () => NOW, port: 0, host: '127.0.0.1', accounts, logger: { level: 'info', stream } });
    /** Resolves once a call waits for its admission. */
    const nextArrival = () => new Promise<void>((resolve) => (arrived = resolve));
    /** Lets every waiting admission through. */
    const letThrough = () => waiting.splice(0).forEach((resolve) => resolve());
    /** A call whose admissions are let through as they come; its status. */
    const call = async (key: string) => {
      const arrival = nextArrival();
      const response = fetch(`${server.url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: `Apikey ${key}` } });
      await arrival;
      letThrough();
      return (await response).status;
    };
    /** A call on a raw connection whose client closes its side (FIN) while its admission waits; resolves with all it received. */
    const leaving = async (key: string) => {
      const arrival = nextArrival();
      const url = new URL(server.url);
      const socket = connect(Number(url.port), url.hostname);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
      socket.write(`GET ${BASE}/overview?url=example.com&scope=ROOT_DOMAIN HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Apikey ${key}\r\nConnection: close\r\n\r\n`);
      await arrival;
      socket.end();
      // The server closed the connection: it has seen the client leave.
      const all = await closed;
      letThrough();
      return all;
    };
    const requestLines = () => lines.filter((line) => line['msg'] === 'request');
    return { server, reads: () => reads, call, leaving, requestLines };
  }

  it('gives an admitted call\'s slot back when the admission comes, runs nothing, and logs 499 once', async () => {
    const { server, reads, call, leaving, requestLines } = await waitingServer();
    try {
      expect(await leaving('one-at-a-time-key')).toBe('');
      await expect.poll(() => requestLines()).toEqual([expect.objectContaining({ operation: 'overview', key_id: 'one', status: 499, units: 0, abandoned: 'nothing running' })]);
      expect(reads()).toBe(0);
      // The key's one slot is free, and each answered call gives it back in turn.
      expect(await call('one-at-a-time-key')).toBe(200);
      expect(await call('one-at-a-time-key')).toBe(200);
      expect(reads()).toBe(2);
      await expect.poll(() => requestLines().map((line) => line['status'])).toEqual([499, 200, 200]);
    } finally {
      await server.close();
    }
  });

  it('logs 499 for a call its key\'s limit would have refused, and the limit still holds after it', async () => {
    const { server, reads, call, leaving, requestLines } = await waitingServer();
    try {
      // One per second, and the clock stands still: the first call spends the second.
      expect(await call('once-a-second-key')).toBe(200);
      expect(await leaving('once-a-second-key')).toBe('');
      expect(await call('once-a-second-key')).toBe(429);
      expect(reads()).toBe(1);
      await expect
        .poll(() => requestLines().map(({ key_id, status, units, abandoned }) => ({ key_id, status, units, abandoned })))
        .toEqual([
          { key_id: 'once', status: 200, units: 45, abandoned: undefined },
          { key_id: 'once', status: 499, units: 0, abandoned: 'nothing running' },
          { key_id: 'once', status: 429, units: 0, abandoned: undefined },
        ]);
    } finally {
      await server.close();
    }
  });
});
