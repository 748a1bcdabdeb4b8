/**
 * A valid filter the store's SQL cannot run exactly is the caller's 400 with detail rule
 * `unsupported_filter`, in the envelope, and charged nothing (docs/server.md, docs/errors.md),
 * over a real loopback socket on the store of the run. Which filters a store refuses is the
 * store's: SQLite refuses U+0000 and U+FFFD-U+FFFF in a LIKE pattern (its GLOB cannot tell them
 * apart), PostgreSQL any text with U+0000; the embedded store (DuckDB) and ClickHouse run them
 * all exactly, so there the same filters answer 200 with the fixture's rows (none).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BALANCE_PATH, type BalanceResponse } from '../../../src/catalogue/balance.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { KEYS, NOW } from '../support/fixture.js';
import { BASE, fixtureStore, STORE_KIND } from '../support/helpers.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ store: await fixtureStore(), keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', rateLimits: { perSecond: 1000, concurrent: 100 } });
});
afterAll(async () => {
  await server.close();
});

const headers = { authorization: `Apikey ${KEYS[0].key}` };
const call = (operation: string, filter: string) =>
  fetch(`${server.url}${BASE}/${operation}?${new URLSearchParams({ url: 'example.com', scope: 'ROOT_DOMAIN', filter })}`, { headers });
const balance = async () => ((await (await fetch(`${server.url}${BALANCE_PATH}`, { headers })).json()) as BalanceResponse).data.units_remaining;

/**
 * Per store, what each filter gets: the reason after "The filter cannot be run here: " (from the
 * dialects, src/sql/dialects) when the store refuses it, or `null` when it runs it exactly (200,
 * no rows: no fixture anchor holds these characters).
 */
const FILTERS = [
  ['links', "anchor LIKE '%\u0000%'"],
  ['anchors', "anchor LIKE '%\ufffd%'"],
  ['anchors', "anchor = 'a\u0000'"],
] as const;
const SQLITE_NUL = 'sqlite: a LIKE pattern cannot contain U+0000';
const SQLITE_GLOB = 'sqlite: GLOB cannot tell U+FFFD, U+FFFE and U+FFFF apart in a LIKE pattern';
const POSTGRES_NUL = 'postgres: text cannot contain U+0000';
const REFUSAL: Readonly<Record<typeof STORE_KIND, readonly (string | null)[]>> = {
  sqlite: [SQLITE_NUL, SQLITE_GLOB, null],
  postgres: [POSTGRES_NUL, null, POSTGRES_NUL],
  embedded: [null, null, null],
  clickhouse: [null, null, null],
};
const CASES = FILTERS.map(([operation, filter], i) => [operation, filter, REFUSAL[STORE_KIND][i]!] as const);

describe(`filters on the ${STORE_KIND} store`, () => {
  it.each(CASES)('%s %j: refused as %j', async (operation, filter, reason) => {
    const before = await balance();
    // The fixture's tester key: no call here costs anything (a refusal charges nothing, and no row matches).
    expect(before).toBe(1_000_000);
    const response = await call(operation, filter);
    if (reason === null) {
      expect(response.status).toBe(200);
      const body = (await response.json()) as { meta: { total: number }; data: unknown[] };
      expect([body.meta.total, body.data]).toEqual([0, []]);
      return;
    }
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-units-charged')).toBeNull();
    expect(await response.json()).toEqual({
      meta: { request_id: expect.any(String), status_code: 400, success: false },
      error: {
        type: '/errors#invalid_request',
        code: 400,
        message: `The filter cannot be run here: ${reason}.`,
        retryable: false,
        details: [{ parameter: 'filter', rule: 'unsupported_filter', message: reason }],
      },
    });
    expect(await balance()).toBe(before);
  });
});
