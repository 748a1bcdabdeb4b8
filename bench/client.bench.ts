/**
 * The client's costs beside their baselines, in the same run:
 * - CSV decoding of 100,000 links rows with the catalogue's types vs papaparse alone and vs csv-parse alone (header
 *   objects, strings only). Goal: ratio <= 1.2x, our typing adds little.
 * - One call through the client (parameter checks, the filter checked, key header, timeout, JSON
 *   shape check, units) vs a bare `fetch` + `response.json()` of the same request, against a local
 *   `node:http` server. Goal: ratio <= 1.2x.
 *
 * Run alone: `npx tsx bench/client.bench.ts`
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as csvParse } from 'csv-parse/sync';
import Papa from 'papaparse';
import { operations } from '../src/catalogue/operations.js';
import type { RecordSpec } from '../src/catalogue/records.js';
import { createClient, decodeCsv } from '../src/client/index.js';
import { compare, comparePairedAsync, printRatios, type BenchRatio } from './harness.js';

const CELL: Record<string, (i: number) => string> = {
  string: (i) => (i % 10 === 0 ? `"anchor; with ""quotes"" ${i}"` : `https://site${i}.example/page`),
  timestamp: (i) => `2024-05-${String((i % 28) + 1).padStart(2, '0')}T10:00:00`,
  integer: (i) => String(i % 101),
  number: (i) => String((i % 100) / 100),
  boolean: (i) => (i % 2 === 0 ? 'true' : 'false'),
};

/** The links CSV the service would send for `rows` rows (columns in catalogue order). */
export function linksCsv(rows: number): string {
  const record: RecordSpec = operations.links.record;
  const columns = Object.keys(record);
  const lines = [columns.join(';')];
  for (let i = 0; i < rows; i++) lines.push(columns.map((c) => CELL[record[c]!.type]!(i)).join(';'));
  return `${lines.join('\n')}\n`;
}

function csvBench(): BenchRatio[] {
  const text = linksCsv(100_000);
  const ours = () => decodeCsv('links', text);
  const papa = () => Papa.parse(text, { delimiter: ';', header: true, skipEmptyLines: true });
  const csvParseAlone = () => csvParse(text, { delimiter: ';', columns: true, skip_empty_lines: true }) as unknown[];
  if (ours().length !== 100_000 || papa().data.length !== 100_000 || csvParseAlone().length !== 100_000) throw new Error('CSV bench rows do not match');
  const options = { bytes: text.length, samples: 5, sampleMs: 300, goal: 1.2 };
  return [
    // The library the client decodes with, alone: what the catalogue's typing adds.
    compare('CSV decode, 100,000 links rows (typed vs papaparse alone)', ours, papa, options),
    // The peer the issue names, alone (header objects of strings).
    compare('CSV decode, 100,000 links rows (typed vs csv-parse alone)', ours, csvParseAlone, options),
  ];
}

/**
 * One call through the client against a bare `fetch` of the same request, on loopback. The
 * baseline is what a careful hand-written call does: the same URL (checked below: the server
 * records both), the same headers (the client's `Accept` and `Authorization`), the body read and
 * parsed as JSON; both go through the same global `fetch` and its keep-alive connection pool, to
 * the same server answering the same body. What the client adds: the parameter rules, the filter
 * checked (the parser and validator, or the client's cache of calls and filters it checked
 * before), the price estimate and the budget, the per-attempt timeout (a timer and an abort signal
 * the bare call does not have), the retry loop, the JSON shape check against the catalogue, and
 * units. The first row repeats a call the client checked before (as a dashboard refreshing does);
 * the second one sends a filter not seen before each time, so the whole parse + validate, and the
 * parameter rules, are in it.
 */
async function overheadBench(): Promise<BenchRatio[]> {
  const rows = Array.from({ length: 10 }, (_, i) => ({ anchor: `anchor ${i}`, domain_score: i }));
  const body = JSON.stringify({ meta: { request_id: 'b', status_code: 200, success: true, total: 10 }, data: rows });
  const seen: { url: string; accept: string | undefined; authorization: string | undefined }[] = [];
  const server = createServer((req, res) => {
    if (seen.length < 4) seen.push({ url: req.url ?? '', accept: req.headers.accept, authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createClient({ apiKey: 'bench', baseUrl });
  const params = { url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['anchor', 'domain_score'], filter: 'domain_score > 5', limit: 10 } as const;
  const url = `${baseUrl}${operations.links.path}?url=example.com&scope=ROOT_DOMAIN&fields=anchor%2Cdomain_score&limit=10&filter=domain_score+%3E+5`;
  const headers = { Accept: 'application/json, text/csv', Authorization: 'Apikey bench' };
  const ours = () => client.links(params);
  const bare = () => fetch(url, { headers }).then((r) => r.json());
  // The client's per-attempt timeout (default 30 s) hands fetch an AbortSignal. On Node 20 a new
  // signal is costly (creating it, and undici's listeners and finalizers for it; README.md,
  // section "Benchmarks"), so the client hands a signal on to its next attempt when the timer did
  // not fire; a hand-written call makes a new one each time. Two more rows show that part apart:
  // the bare call with a new 30 s timeout signal each call, and the client with `timeout: false`.
  const bareWithTimeout = () => {
    const timer = new AbortController();
    const handle = setTimeout(() => timer.abort(), 30_000);
    return fetch(url, { headers, signal: timer.signal })
      .then((r) => r.json())
      .finally(() => clearTimeout(handle));
  };
  const untimed = createClient({ apiKey: 'bench', baseUrl, timeout: false });
  const oursUntimed = () => untimed.links(params);
  // Filters never sent before: the same filter with a new number each call (same length, so
  // the same URL length as the baseline's within a few bytes).
  let n = 0;
  const fresh = () => client.links({ ...params, filter: `domain_score > ${5 + (n++ % 1_000_000)}` });
  try {
    await ours();
    await bare();
    const [a, b] = seen;
    if (seen.length !== 2 || a!.url !== b!.url || a!.accept !== b!.accept || a!.authorization !== b!.authorization) {
      throw new Error(`the client and the bare fetch do not send the same request: ${JSON.stringify(seen)}`);
    }
    // Short samples, many pairs: on a shared machine a burst of load (or a garbage collection)
    // then lands in few samples, and the median leaves them out (how much a run moves with longer
    // samples and fewer pairs: README.md, section "Benchmarks").
    const sampling = { calls: 20, pairs: 101 };
    const options = { ...sampling, goal: 1.2 };
    return [
      await comparePairedAsync('One links call: client vs bare fetch + json() (filter checked before)', ours, bare, options),
      // No goal here: the goal of a call's overhead is the row above; what this row adds is the
      // parse + validate of a new filter, which has its own goal (parse.bench.ts, at most 1.1x the
      // Chevrotain floor). Reported so the cost of local validation between calls stays in view.
      await comparePairedAsync('One links call: client vs bare fetch + json() (filter never seen: the call plus its parse + validate)', fresh, bare, sampling),
      await comparePairedAsync('One links call: client vs bare fetch + json() with a 30 s timeout signal of its own', ours, bareWithTimeout, sampling),
      await comparePairedAsync('One links call: client with timeout: false vs bare fetch + json()', oursUntimed, bare, sampling),
    ];
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * Runs the client benchmarks and returns the ratios (ours time / baseline time).
 *
 * @example
 * ```ts
 * printRatios('Client', await runClientBench());
 * ```
 */
export async function runClientBench(): Promise<BenchRatio[]> {
  return [...csvBench(), ...(await overheadBench())];
}

/** Only the call overhead (`npm run bench -- call`): a minute shorter than the whole client group. */
export async function runCallBench(): Promise<BenchRatio[]> {
  return overheadBench();
}

// Run alone (not when bundled into the lead's runner, where import.meta.url is the runner's).
if (/client\.bench\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  printRatios('Client vs papaparse alone and bare fetch (ratio = our time / baseline time)', await runClientBench());
}
