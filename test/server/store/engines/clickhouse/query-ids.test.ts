/**
 * Every statement the ClickHouse store sends for one HTTP call is named after the call: its
 * `query_id` is the request's id (the answer's `X-Request-Id`), a dash and a number, so that all of
 * a call's statements can be found afterwards in `system.query_log` of every shard (docs/scaling.md,
 * "Rows read per call"). A shard's part of a distributed query has an id of its own; its
 * `initial_query_id` is the statement's.
 *
 * On the real two-shard test cluster (Debian's 18.16, `system.query_log` on, as
 * scripts/engines/clickhouse.sh configures it): three calls at once, so their statements
 * interleave: the matrix (read through the entry shard's Distributed tables, so shard 2 runs parts
 * of it), the overview of a target whose domain lives on shard 2 (read there directly), and the
 * first competitors call (which reads the referrer graph). What is expected comes from outside
 * the store: the answers' headers, the request URLs the store sent (`fetch` watched), the shard of
 * a domain from the server's own `cityHash64`, and the servers' logs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { createServer } from '../../../../../src/server/server.js';
import { ClickhouseShard } from '../../../../../src/server/store/engines/clickhouse/connection.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { join as joinSql, raw, sql } from '../../../../../src/server/store/fragment.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import { KEYS, loadFixture, NOW } from '../../../support/fixture.js';

const BASE = '/_api/apis/v4/backlinks/v1';
const database = `bq_query_ids_${Math.random().toString(36).slice(2, 10)}`;
let urls: string[];
let dir: string;
let store: ClickhouseStore;
let app: FastifyInstance;

beforeAll(async () => {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  urls = cluster.split(',');
  const { tldts } = await loadServerDeps();
  dir = mkdtempSync(join(tmpdir(), 'bq-query-ids-ch-'));
  store = await openClickhouseStore({ urls, database, parser: tldts, ledger: await openLedgerAt({ kind: 'sqlite', file: join(dir, 'ledger.db') }) });
  await loadFixture(store);
  app = await createServer({ store, keys: KEYS, now: () => NOW, rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 } });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  for (const url of urls ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One finished statement in a shard's `system.query_log`. */
interface Logged {
  readonly query_id: string;
  readonly initial_query_id: string;
  readonly is_initial_query: number;
  readonly query: string;
}

/** Every finished statement of each shard (in the order of `urls`) whose `initial_query_id` starts with `prefix`. */
async function logged(prefix: string): Promise<Logged[][]> {
  return Promise.all(
    urls.map(async (url) => {
      const shard = new ClickhouseShard({ url, database: 'system', timeoutMs: 30_000 });
      await shard.run(raw('SYSTEM FLUSH LOGS'));
      return shard.all<Logged>(
        sql`SELECT query_id, initial_query_id, is_initial_query, query FROM system.query_log WHERE type = 2 AND startsWith(initial_query_id, ${prefix})`,
      );
    }),
  );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('ClickHouse statements named after their call', () => {
  it('gives every statement of a call its request id and a number, on every shard, and no two calls the same', async () => {
    // The fixture's target whose registrable domain lives on shard 2, as the server itself hashes it.
    const entry = new ClickhouseShard({ url: urls[0]!, database: 'system' });
    const targets = ['example.com', 'rival.com', 'other.co.uk', 'third.com', 'boundary.com'];
    const placed = await entry.all<{ d: string; s: number }>(
      sql`SELECT d, cityHash64(d) % 2 AS s FROM (SELECT arrayJoin([${joinSql(targets.map((d) => sql`${d}`), ', ')}]) AS d)`,
    );
    // The five targets lie on both shards (whichever they are), so one of them is read on shard 2.
    expect(new Set(placed.map((row) => Number(row.s)))).toEqual(new Set([0, 1]));
    const onShard2 = placed.find((row) => Number(row.s) === 1)!.d;

    // The query_id of every request the store sends while the calls run.
    const sent: string[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (urls.includes(url.origin)) sent.push(url.searchParams.get('query_id') ?? '(none)');
      return realFetch(input, init);
    });
    const headers = { authorization: `Apikey ${KEYS[0].key}` };
    let answers;
    try {
      answers = await Promise.all(
        [`matrix?urls=example.com,rival.com,other.co.uk&scope=ROOT_DOMAIN`, `overview?url=${onShard2}&scope=ROOT_DOMAIN`, 'competitors?domain=example.com'].map(
          (path) => app.inject({ method: 'GET', url: `${BASE}/${path}`, headers }),
        ),
      );
    } finally {
      spy.mockRestore();
    }
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const ids = answers.map((answer) => String(answer.headers['x-request-id']));
    expect(new Set(ids).size).toBe(3);
    const [matrix, overview, competitors] = ids as [string, string, string];
    // No id is the start of another's name.
    for (const a of ids) for (const b of ids) if (a !== b) expect(`${b}-`.startsWith(`${a}-`)).toBe(false);

    // Every request the store sent during the calls is named after one of them, each name once.
    expect(sent.length).toBeGreaterThan(0);
    const name = new RegExp(`^(${ids.map(escape).join('|')})-[1-9][0-9]*$`);
    for (const id of sent) expect(id).toMatch(name);
    expect(new Set(sent).size).toBe(sent.length);

    const lines = { matrix: await logged(`${matrix}-`), overview: await logged(`${overview}-`), competitors: await logged(`${competitors}-`) };
    for (const [call, id] of [['matrix', matrix], ['overview', overview], ['competitors', competitors]] as const) {
      const [shard1, shard2] = lines[call];
      const all = [...shard1!, ...shard2!];
      // The statements the shards logged as sent to them are those the store sent for this call.
      const initial = all.filter((line) => Number(line.is_initial_query) === 1).map((line) => line.query_id);
      expect(initial.sort(), call).toEqual(sent.filter((s) => s.startsWith(`${id}-`)).sort());
      for (const line of all) expect(line.initial_query_id, call).toMatch(new RegExp(`^${escape(id)}-[1-9][0-9]*$`));
      // A shard's part of a distributed statement: an id of its own, the statement's as initial_query_id.
      for (const line of all.filter((l) => Number(l.is_initial_query) === 0)) {
        expect(line.query_id).not.toMatch(name);
        expect(initial).toContain(line.initial_query_id);
      }
    }
    // The matrix reads through the entry shard's Distributed tables: shard 2 runs parts of it.
    expect(lines.matrix[0]!.some((line) => Number(line.is_initial_query) === 1)).toBe(true);
    expect(lines.matrix[1]!.some((line) => Number(line.is_initial_query) === 0)).toBe(true);
    // The overview of a domain on shard 2 is read there, by statements the store sent it.
    expect(lines.overview[1]!.some((line) => Number(line.is_initial_query) === 1)).toBe(true);
    // The first competitors call reads the referrer graph (`r_graph`): named after the call too.
    expect(lines.competitors.flat().some((line) => Number(line.is_initial_query) === 1 && /FROM r_graph\b/.test(line.query))).toBe(true);
  }, 120_000);
});
