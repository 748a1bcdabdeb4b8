/**
 * The raw-socket fuzz (test/server/support/raw-fuzz-kit.ts) run long: generated requests over raw sockets
 * for 5 s in the test run and five minutes in `npm run soak`, every answer in the envelope with a
 * 4xx, the key never echoed, no unit charged. Its figures go to the soak's table.
 */
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/server.js';
import { KEYS, NOW } from '../support/fixture.js';
import { fixtureStore } from '../support/helpers.js';
import { runRawSocketFuzz } from '../support/raw-fuzz-kit.js';
import { recordFigures, seconds, SOAK } from './load-kit.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 2025);

describe('raw-socket fuzz, long', () => {
  it(
    'every generated request answered in the envelope with a 4xx, the key never echoed, no unit charged',
    async () => {
      const store = await fixtureStore();
      const server = await startServer({ store, keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', rateLimits: { perSecond: 1e9, concurrent: 1e9 } });
      try {
        const before = await Promise.all(KEYS.map((k) => store.ledger.balance(k.id)));
        const report = await runRawSocketFuzz({ port: Number(new URL(server.url).port), key: KEYS[0].key, seed: SEED, timeLimitMs: seconds(5, 300) });
        const after = await Promise.all(KEYS.map((k) => store.ledger.balance(k.id)));
        const fivexx = Object.entries(report.statuses).reduce((sum, [status, n]) => sum + (Number(status) >= 500 ? n : 0), 0);
        recordFigures('raw-socket fuzz', {
          seed: SEED,
          requests: report.requests,
          fivexx,
          lost_units: before.reduce<number>((sum, units, i) => sum + (units ?? 0) - (after[i] ?? 0), 0),
          statuses: report.statuses,
          failure: report.failure ?? null,
        });
        expect(report.failure, `seed ${SEED}`).toBeUndefined();
        expect(after).toEqual(before);
        expect(report.requests).toBeGreaterThan(SOAK ? 50_000 : 500);
      } finally {
        await server.close();
      }
    },
    SOAK ? 600_000 : 120_000,
  );
});
