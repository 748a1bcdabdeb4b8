/**
 * The abort storm of `test/server/load/abort-storm.test.ts` on a database the bench seeded, at the
 * sizes users have: one key (10 per second, 10 at once, honouring Retry-After) sends a links call
 * with a new filter each time (limit 1000, ordered by page_score, three LIKE conditions) and leaves
 * 5 ms later, while another key calls overview, ref-domains, links and anchors two at a time. It
 * prints the other key's p50/p99 alone and during the storm, and how long the abandoned calls'
 * work lasted (their 499 log lines). The server is `serve` in its own process, as users run it
 * (the bench's fixed clock); the two keys' clients share this one.
 *
 * Run: `npx tsx bench/server/storm-probe.ts postgres 1000000 [--parallel N]` (embedded, sqlite or
 * postgres, a size `npm run bench:server` seeded into `.bench-data`; PostgreSQL's cluster is
 * started from `.bench-data/postgres` and stopped after). `--parallel N` lets each of the
 * PostgreSQL store's request statements start N parallel workers (through the URL's `options`;
 * the store's default is 0, PostgreSQL's own is 2).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad } from '../../test/server/load/load-kit.js';
import { postgresDatabase } from './databases.js';
import { startCluster } from './postgres-cluster.js';
import { startServerProcess } from './server-process.js';

const DIR = join(process.cwd(), '.bench-data');
const [kind = 'postgres', size = '1000000', ...flags] = process.argv.slice(2);
const links = Number(size);
const at = flags.indexOf('--parallel');
const PARALLEL = at < 0 ? 0 : Number(flags[at + 1]);
const PHASE_MS = 15_000;
const TARGET = 'url=example.com&scope=ROOT_DOMAIN';
const BASE = '/_api/apis/v4/backlinks/v1';
const STORM = { id: 'storm', key: 'storm-key-0123456789', units: 1_000_000_000 };
const CALM = { id: 'calm', key: 'calm-key-0123456789', units: 1_000_000_000, rate: 1_000_000, concurrency: 1_000 };

let stop = async () => undefined as void;
let serveArgs: readonly string[];
if (kind === 'postgres') {
  const cluster = await startCluster(join(DIR, 'postgres'));
  stop = () => cluster.stop();
  const url = new URL((await postgresDatabase(DIR, cluster, links)).location);
  if (PARALLEL !== 0) url.searchParams.set('options', `-c max_parallel_workers_per_gather=${PARALLEL}`);
  serveArgs = ['--database-url', url.toString()];
} else if (kind === 'embedded') {
  serveArgs = ['--db', join(DIR, 'embedded', `links-${links}.db`)];
} else {
  serveArgs = ['--database-url', `sqlite:${join(DIR, 'sqlite', `links-${links}.db`)}`];
}

const keyFile = join(mkdtempSync(join(tmpdir(), 'bq-storm-')), 'keys.json');
writeFileSync(keyFile, JSON.stringify([STORM, CALM]));
const lines: Record<string, unknown>[] = [];
const server = await startServerProcess(serveArgs, keyFile, { onLogLine: (line) => lines.push(line) });
const calm = (durationMs: number) =>
  runLoad({
    base: server.url,
    paths: [`${BASE}/overview?${TARGET}`, `${BASE}/ref-domains?${TARGET}&limit=10`, `${BASE}/links?${TARGET}&limit=10`, `${BASE}/anchors?${TARGET}&limit=10`],
    concurrency: 2,
    durationMs,
    timeoutMs: 30_000,
    headers: { authorization: `Apikey ${CALM.key}` },
  });

/** Sends a GET, closes the client's side after `ms`, resolves to the status received (0: none). */
function leaving(path: string, ms: number): Promise<number> {
  const url = new URL(server.url);
  const socket = connect(Number(url.port), url.hostname);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Apikey ${STORM.key}\r\nConnection: close\r\n\r\n`);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const timer = setTimeout(() => socket.end(), ms);
  return new Promise((resolve) => {
    socket.on('error', () => undefined);
    socket.on('close', () => (clearTimeout(timer), resolve(Number(received.slice(9, 12)) || 0)));
  });
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const times = (outcomes: { started: number; ended: number }[]) => outcomes.map((o) => o.ended - o.started);
try {
  await calm(2_000); // warm
  const alone = times(await calm(PHASE_MS));
  let storming = true;
  let sent = 0;
  const loop = async () => {
    while (storming) {
      const filter = `anchor LIKE '%${sent % 97}%' OR source_url LIKE '%${(sent * 7) % 89}%' OR source_title LIKE '%${sent % 50}%'`;
      sent++;
      const status = await leaving(`${BASE}/links?${TARGET}&limit=1000&order_by=page_score&filter=${encodeURIComponent(filter)}`, 5);
      if (status === 429) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  };
  const loops = Array.from({ length: 10 }, loop);
  const during = times(await calm(PHASE_MS));
  storming = false;
  await Promise.all(loops);
  const abandoned = lines.filter((l) => l['status'] === 499).map((l) => Number(l['duration_ms']));
  console.log(
    JSON.stringify({
      store: kind,
      links,
      ...(kind === 'postgres' ? { parallel_workers: PARALLEL } : {}),
      calm_alone: { requests: alone.length, p50: quantile(alone, 0.5), p99: quantile(alone, 0.99) },
      calm_storm: { requests: during.length, p50: quantile(during, 0.5), p99: quantile(during, 0.99) },
      storm_sent: sent,
      abandoned_work_ms: { calls: abandoned.length, p50: quantile(abandoned, 0.5), p90: quantile(abandoned, 0.9) },
    }),
  );
} finally {
  await server.stop();
  await stop();
}
