/**
 * All twelve operations mixed at concurrency 50 on a real listening server, on the embedded store
 * and on SQLite (database files, so queries run on the worker threads) and on PostgreSQL (a fresh
 * database): no 5xx, no
 * failed or timed-out request, and the units the ledger lost are exactly the charges the client
 * was told about. A few seconds each in `npm test`, 60 s each in `npm run soak`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../../src/catalogue/operations.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { KEYS, NOW } from '../support/fixture.js';
import { loadFixture } from '../support/helpers.js';
import { fileTempDir } from '../../helpers/file-end.js';
import { byStatus, describeRun, FIXTURE_PATHS, LOAD_KEY, operationOf, runLoad, seconds, SOAK, unitsCharged } from './load-kit.js';
import { loadStores } from './stores.js';

const CONCURRENCY = 50;
const DURATION_MS = seconds(3, 60);

const dir = fileTempDir('bq-load-mixed-');

const engines = loadStores(dir, 'mixed');

describe.each(Object.keys(engines))('mixed load on %s', (engine) => {
  it(
    `${CONCURRENCY} connections for ${DURATION_MS / 1000} s: no 5xx, no error, ledger = sum of X-Units-Charged`,
    async () => {
      const store = await engines[engine]!();
      let server: RunningServer | undefined;
      try {
        await loadFixture(store);
        server = await startServer({ store, keys: [...KEYS, LOAD_KEY], now: () => NOW, port: 0, host: '127.0.0.1' });
        const before = await store.ledger.balance(LOAD_KEY.id);
        expect(before).toBe(LOAD_KEY.units);

        const outcomes = await runLoad({ base: server.url, paths: FIXTURE_PATHS, concurrency: CONCURRENCY, durationMs: DURATION_MS, timeoutMs: 10_000 });
        const summary = describeRun(outcomes);

        // Every request was answered 200: no 5xx, no socket error, no timeout, and no 4xx either
        // (the key's limits are lifted, and every request is valid).
        expect(byStatus(outcomes), summary).toEqual({ 200: outcomes.length });
        expect(outcomes.filter((o) => o.timedOut || o.error), summary).toEqual([]);
        // Load, not a trickle: well over one request per connection, every operation many times.
        expect(outcomes.length, summary).toBeGreaterThan(CONCURRENCY * 4);
        const seen = new Set(outcomes.map((o) => operationOf(o.path)));
        expect([...OPERATION_NAMES].filter((name) => !seen.has(name))).toEqual([]);

        // Each 200 carries its charge, and the ledger moved by exactly their sum.
        expect(outcomes.filter((o) => !(Number.isSafeInteger(o.charged) && o.charged! > 0 && Number.isSafeInteger(o.remaining)))).toEqual([]);
        // Charges are written a moment after their answers (docs/server.md, "Units").
        await expect.poll(() => store.ledger.balance(LOAD_KEY.id), { timeout: 10_000 }).toBe(before! - unitsCharged(outcomes));
        const after = await store.ledger.balance(LOAD_KEY.id);
        // The lowest X-Units-Remaining any answer reported is the final balance.
        expect(outcomes.reduce((low, o) => Math.min(low, o.remaining!), Infinity)).toBe(after);
        console.log(`[mixed-load ${engine}] ${summary.slice(0, 120)}; ${before! - after!} units charged`);
      } finally {
        if (server) await server.close();
        else await store.close();
      }
    },
    DURATION_MS + (SOAK ? 120_000 : 60_000),
  );
});
