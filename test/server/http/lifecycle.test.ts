/**
 * Graceful shutdown on the run's store: in-flight requests finish, new work is refused, the last
 * charges are written, then the ledger and the database close. (`serve` and `seed` as processes,
 * and the missing-package messages, are in commands.test.ts: they use SQLite files whatever the
 * store, so they run once, not per store.)
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/server.js';
import type { Store } from '../../../src/server/store/store.js';
import { AUTH, BASE, fixtureStore, gatedFixtureStore } from '../support/helpers.js';
import { KEYS, NOW } from '../support/fixture.js';

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, refuses new work, then closes the database', async () => {
    // The real store, whose grouped() waits at a gate the test opens: the request is provably in flight.
    const { real, store, inside, release } = await gatedFixtureStore('grouped');
    const server = await startServer({ store, keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1' });
    const pending = fetch(`${server.url}${BASE}/anchors?url=example.com&scope=ROOT_DOMAIN`, { headers: AUTH });
    await inside;
    const closing = server.close();
    release();
    const response = await pending;
    expect(response.status).toBe(200);
    expect((await response.json()).meta.total).toBe(5);
    await closing;
    // The store closed with the server: it answers nothing any more.
    await expect(real.ledger.balance('tester')).rejects.toMatchObject({ name: 'StoreUnavailableError', message: 'The store is closed.' });
    // Nothing listens on the port any more.
    await expect(fetch(`${server.url}/openapi.json`)).rejects.toMatchObject({ name: 'TypeError', cause: { code: 'ECONNREFUSED' } });
  });
});

/** Three calls of the tester key, each with its status and the units its answer says it cost (0: no whole answer). */
function threeCalls(url: string): Promise<{ status: number; units: number }[]> {
  const paths = ['overview?url=example.com&scope=ROOT_DOMAIN', 'anchors?url=example.com&scope=ROOT_DOMAIN&limit=3', 'ref-domains?url=example.com&scope=ROOT_DOMAIN&limit=2'];
  return Promise.all(
    paths.map((path) =>
      fetch(`${url}${BASE}/${path}`, { headers: AUTH }).then(
        async (response) => {
          await response.text(); // the whole answer arrived
          return { status: response.status, units: response.status === 200 ? Number(response.headers.get('x-units-charged')) : 0 };
        },
        // Refused at the door: the server had stopped accepting.
        () => ({ status: 0, units: 0 }),
      ),
    ),
  );
}

describe('closing right after calls', () => {
  it('writes every charge before the ledger and the store close, logs no error, and takes each charge once', async () => {
    const TESTER = KEYS.find((key) => key.id === 'tester')!;
    // Even rounds close once the answers have arrived; odd ones while the calls are in flight.
    for (let round = 0; round < 12; round++) {
      const real = await fixtureStore();
      // What the ledger holds when the store closes: every charge must be written by then.
      let atClose: number | undefined;
      const store: Store = {
        ...real,
        // Writes that take a few milliseconds, so that the calls' charges are committed while
        // one runs, and go in the write it starts when it ends.
        ledger: { ...real.ledger, charge: async (keyId, units) => (await new Promise((resolve) => setTimeout(resolve, 3)), real.ledger.charge(keyId, units)) },
        close: async () => ((atClose = await real.ledger.balance('tester')), real.close()),
      };
      const errors: unknown[] = [];
      const stream = new Writable({
        write: (chunk, _encoding, done) => {
          const line = JSON.parse(String(chunk)) as { level: number; err?: { status?: number } };
          // A call that comes as the server is closing is answered 503, logged as any 5xx is.
          if (line.level >= 50 && line.err?.status !== 503) errors.push(line);
          done();
        },
      });
      const server = await startServer({ store, keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', logger: { level: 'info', stream } });
      const calls = threeCalls(server.url);
      if (round % 2 === 0) await calls;
      else await new Promise((resolve) => setTimeout(resolve, round % 5));
      await server.close();
      const answers = await calls;
      if (round % 2 === 0) expect(answers.map((answer) => answer.status), `round ${round}`).toEqual([200, 200, 200]);
      expect(errors, `round ${round}`).toEqual([]);
      // Each answer received is charged once, what its X-Units-Charged says; nothing else is.
      expect(atClose, `round ${round}`).toBe(TESTER.units - answers.reduce((sum, answer) => sum + answer.units, 0));
    }
  });
});
