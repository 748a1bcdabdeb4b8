/**
 * The client's costs beside their baselines, in the same run:
 * - CSV decoding of 100,000 links rows with the catalogue's types vs papaparse alone and vs csv-parse alone (header
 *   objects, strings only). Goal: ratio <= 1.2x, our typing adds little.
 * - One call through the client (parameter checks, key header, JSON shape check, units) vs a bare
 *   `fetch` + `response.json()` of the same URL, against a local `node:http` server.
 *
 * Run alone: `npx tsx bench/client.bench.ts`
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parse as csvParse } from 'csv-parse/sync';
import Papa from 'papaparse';
import { operations } from '../src/catalogue/operations.js';
import type { RecordSpec } from '../src/catalogue/records.js';
import { createClient, decodeCsv } from '../src/client/index.js';
import { compare, printRatios, type BenchRatio, type BenchResult } from './harness.js';

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

async function measureAsync(name: string, fn: () => Promise<unknown>, calls: number): Promise<BenchResult> {
  for (let i = 0; i < 50; i++) await fn();
  const times: number[] = [];
  for (let s = 0; s < 5; s++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    times.push(((performance.now() - start) * 1e6) / calls);
  }
  times.sort((a, b) => a - b);
  const nsPerOp = times[2]!;
  return { name, nsPerOp, opsPerSecond: 1e9 / nsPerOp };
}

async function overheadBench(): Promise<BenchRatio> {
  const rows = Array.from({ length: 10 }, (_, i) => ({ anchor: `anchor ${i}`, domain_score: i }));
  const body = JSON.stringify({ meta: { request_id: 'b', status_code: 200, success: true, total: 10 }, data: rows });
  const server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createClient({ apiKey: 'bench', baseUrl });
  const params = { url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['anchor', 'domain_score'], filter: 'domain_score > 5', limit: 10 } as const;
  const url = `${baseUrl}${operations.links.path}?url=example.com&scope=ROOT_DOMAIN&fields=anchor%2Cdomain_score&filter=domain_score+%3E+5&limit=10`;
  const ours = () => client.links(params);
  const bare = () => fetch(url, { headers: { Authorization: 'Apikey bench' } }).then((r) => r.json());
  try {
    const a: BenchResult[] = [];
    const b: BenchResult[] = [];
    for (let round = 0; round < 3; round++) {
      a.push(await measureAsync('client call (ours)', ours, 300));
      b.push(await measureAsync('bare fetch (baseline)', bare, 300));
    }
    const median = (list: BenchResult[]) => [...list].sort((x, y) => x.nsPerOp - y.nsPerOp)[1]!;
    const [o, base] = [median(a), median(b)];
    return { name: 'One links call: client vs bare fetch + json()', ours: o, baseline: base, ratio: o.nsPerOp / base.nsPerOp };
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
  return [...csvBench(), await overheadBench()];
}

// Run alone (not when bundled into the lead's runner, where import.meta.url is the runner's).
if (/client\.bench\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  printRatios('Client vs papaparse alone and bare fetch (ratio = our time / baseline time)', await runClientBench());
}
