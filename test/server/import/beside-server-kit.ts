/**
 * What the tests of a load beside a running server share (issue 50; beside-server.test.ts on the
 * embedded store and SQLite, beside-server-postgres.test.ts, beside-server-clickhouse.test.ts):
 * `serve` as a process on a store, `import` as a process into the same store while four streams
 * of HTTP calls run, and what each call saw. The states are counted by hand from the records below
 * (the bulk file adds links to other targets only: its generated domains end in `-site.` names,
 * never acme.test).
 */
import { expect } from 'vitest';
import { writeExport } from '../../../bench/import-file.js';
import { spawnCli, waitFor } from '../support/cli-process.js';
import { importFiles, link, ndjson } from './import-helpers.js';

/** Before the load: acme.test has three links, from three domains; two follow (one.test, two.test). */
const BEFORE_RECORDS = [link('one.test', 'a'), link('two.test', 'b'), link('three.test', 'c', { is_nofollow: true })];
/**
 * The load adds four.test and five.test (both follow), and replaces one.test's link (the same
 * source, target and anchor) by a nofollow one: five links from five domains, three follow
 * (two.test, four.test, five.test). The follow count differs from before, so that a page of one
 * state with the count of the other shows.
 */
const ADDED_RECORDS = [link('four.test', 'd'), link('five.test', 'e'), link('one.test', 'a', { is_nofollow: true })];

/** One call's answer, reduced to what tells the states apart. */
export type Seen = { readonly overview: string; readonly follows: string };
export const BEFORE: Seen = { overview: 'backlinks 3, domains 3, follows 2, nofollows 1', follows: 'total 2: https://one.test/post, https://two.test/post' };
export const AFTER: Seen = {
  overview: 'backlinks 5, domains 5, follows 3, nofollows 2',
  follows: 'total 3: https://five.test/post, https://four.test/post, https://two.test/post',
};

/** An empty store: acme.test has no link. */
export const EMPTY: Seen = { overview: 'backlinks 0, domains 0, follows 0, nofollows 0', follows: 'total 0: ' };
/**
 * The load into an empty store (the bulk file and ADDED_RECORDS, without BEFORE_RECORDS): three
 * links to acme.test from three domains, two follow (four.test, five.test), one.test's nofollow.
 */
export const AFTER_EMPTY: Seen = { overview: 'backlinks 3, domains 3, follows 2, nofollows 1', follows: 'total 2: https://five.test/post, https://four.test/post' };

const KEY = 'ci-key-123456';
/** Lines of the bulk file: enough to keep the load going for some seconds. */
const BULK_LINES = 20_000;

/** The two calls each stream makes, each reduced to what tells the states apart. */
export type Call = keyof Seen;
const CALLS: readonly Call[] = ['overview', 'follows'];

/** One call against the server: acme.test's overview, or its follow links (a count and a page: two reads of the store in one call). */
async function call(url: string, kind: Call): Promise<string> {
  const path =
    kind === 'overview'
      ? 'overview?url=acme.test&scope=ROOT_DOMAIN'
      : `links?url=acme.test&scope=ROOT_DOMAIN&filter=${encodeURIComponent('is_nofollow = false')}&fields=source_url&limit=100`;
  const response = await fetch(`${url}/_api/apis/v4/backlinks/v1/${path}`, { headers: { authorization: `Apikey ${KEY}` } });
  const body = (await response.json()) as { data: unknown; meta: { total?: number } };
  expect(response.status, JSON.stringify(body)).toBe(200);
  if (kind === 'overview') {
    const o = (Array.isArray(body.data) ? body.data[0] : body.data) as Record<string, number>;
    return `backlinks ${o['backlinks_count']}, domains ${o['domains_count']}, follows ${o['follows_count']}, nofollows ${o['nofollows_count']}`;
  }
  const sources = (body.data as { source_url: string }[]).map((row) => row.source_url).sort();
  return `total ${body.meta.total}: ${sources.join(', ')}`;
}

/** Both calls, one after the other. */
async function ask(url: string): Promise<Seen> {
  return { overview: await call(url, 'overview'), follows: await call(url, 'follows') };
}

/** What one call of a stream saw, and when. */
export interface Answered {
  readonly kind: Call;
  readonly started: number;
  readonly ended: number;
  readonly seen: string;
}

/**
 * Loads beside a server, with the files in a temporary folder of the test file (prefix `prefix`):
 * `loadWhileServing(store)` imports the records before, starts `serve` on the store, checks it
 * answers the state before, then imports a bulk file and the added records while four streams of
 * calls run; it returns what the streams saw and what the first call after the import saw. With
 * `{ empty: true }` nothing is imported before: the server starts on the empty store and answers
 * {@link EMPTY}. A call that fails (any status but 200) fails its stream, and the test. `newDb()`:
 * the path of a new database file in that folder.
 */
export function besideServer(prefix: string) {
  const { dir, file, newDb } = importFiles(prefix);
  let bulk: string | undefined;
  const bulkFile = async (): Promise<string> => {
    if (bulk === undefined) {
      const path = `${dir()}/bulk.ndjson`;
      await writeExport(path, BULK_LINES, 'ndjson', 11);
      bulk = path;
    }
    return bulk;
  };
  const loadWhileServing = async (store: readonly string[], options: { readonly empty?: boolean } = {}) => {
    if (!options.empty) {
      const before = await runImport([file('before.ndjson', ndjson(BEFORE_RECORDS))], store);
      expect(before.code, before.err).toBe(0);
    }
    const serve = spawnCli(['serve', '--port', '0', ...store, '--now', '2026-06-15', '--quiet'], {
      BACKLINK_QUERY_KEYS: JSON.stringify([{ id: 'ci', key: KEY, units: 100_000_000, rate: 100_000, concurrency: 100 }]),
    });
    try {
      const [, url] = await waitFor(serve.out, /listening on (http:\/\/\S+)/, serve.exit);
      expect(await ask(url!)).toEqual(options.empty ? EMPTY : BEFORE);
      const calls: Answered[] = [];
      let importing = true;
      const stream = async (offset: number) => {
        for (let i = offset; importing; i++) {
          const kind = CALLS[i % CALLS.length]!;
          const started = performance.now();
          const seen = await call(url!, kind);
          calls.push({ kind, started, ended: performance.now(), seen });
        }
      };
      const streams = [stream(0), stream(1), stream(0), stream(1)];
      const load = runImport([await bulkFile(), file('added.ndjson', ndjson(ADDED_RECORDS))], store);
      const loaded = await load.finally(() => (importing = false));
      await Promise.all(streams);
      expect(loaded.code, loaded.err).toBe(0);
      // The first call after the load has ended.
      const first = await ask(url!);
      return { calls, first };
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exit;
    }
  };
  return { loadWhileServing, newDb };
}

async function runImport(files: readonly string[], store: readonly string[]): Promise<{ code: number | null; err: string }> {
  const run = spawnCli(['import', ...files, ...store]);
  return { code: await run.exit, err: run.err() };
}

/** Enough calls ran during the load for the test to mean something. */
export function expectEnoughCalls(calls: readonly Answered[]): void {
  expect(calls.length).toBeGreaterThanOrEqual(8);
}

/**
 * Each call saw one whole state, the one before the load or the one after it; once a call has
 * shown the load, no call begun after it shows the data before it; and some calls were answered
 * before the load committed (the server kept answering during it). The states: {@link BEFORE} and
 * {@link AFTER} unless given ({@link EMPTY} and {@link AFTER_EMPTY} for a load into an empty store).
 */
export function expectOneStateEach(calls: readonly Answered[], before: Seen = BEFORE, after: Seen = AFTER): void {
  expectEnoughCalls(calls);
  for (const { kind, seen } of calls) expect([before[kind], after[kind]]).toContain(seen);
  const firstAfter = Math.min(...calls.filter((answered) => answered.seen === after[answered.kind]).map((answered) => answered.ended));
  for (const answered of calls) if (answered.started > firstAfter) expect(answered.seen).toBe(after[answered.kind]);
  expect(calls.some((answered) => answered.seen === before[answered.kind])).toBe(true);
}
