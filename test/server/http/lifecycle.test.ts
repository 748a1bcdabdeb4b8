/**
 * Graceful shutdown on the run's store: in-flight requests finish, new work is refused, the
 * database closes. (`serve` and `seed` as processes, and the missing-package messages, are in
 * commands.test.ts: they use SQLite files whatever the store, so they run once, not per store.)
 */
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/server.js';
import { AUTH, BASE, gatedFixtureStore } from '../support/helpers.js';
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
    await expect(real.balance('tester')).rejects.toMatchObject({ name: 'StoreUnavailableError', message: 'The store is closed.' });
    // Nothing listens on the port any more.
    await expect(fetch(`${server.url}/openapi.json`)).rejects.toMatchObject({ name: 'TypeError', cause: { code: 'ECONNREFUSED' } });
  });
});
