/**
 * Times a load beside a running server on the embedded store (issue 50): a copy of a seeded
 * database (such as bench:server's 1M-link one) is served by `serve`, four streams of calls run
 * against it (the largest target's overview and its first links page), first for a few quiet
 * seconds, then while `import` loads a generated export into the same files; a fifth stream asks
 * for the export's first target until the load shows. Then the same import into a second copy
 * with no server, and the copy of the column file a load makes, alone. Prints a Markdown section
 * for bench/RESULTS.md ("Loads beside a server", under "Import, 1M lines").
 *
 *   node --import tsx bench/load-beside-server.ts --db DATA/embedded/links-1000000.db [--lines 20000] [--dir /tmp/bq-beside]
 */
import { spawn } from 'node:child_process';
import { constants, copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { exportWorld, writeExport } from './import-file.js';
import { Random } from '../src/server/sample/random.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'bench-beside-key-1';
const SEED = 5;

const { values } = parseArgs({ options: { db: { type: 'string' }, lines: { type: 'string', default: '20000' }, dir: { type: 'string', default: '/tmp/bq-beside' }, quiet: { type: 'string', default: '5' } } });
if (!values.db) throw new Error('--db DATA/embedded/links-1000000.db is required (npm run bench:server seeds it)');
const source = resolve(values.db);
const lines = Number(values.lines);
const dir = resolve(values.dir);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

/** A fresh copy of the seeded database. */
function copyOfDb(name: string): string {
  const db = join(dir, name);
  copyFileSync(source, db);
  copyFileSync(`${source}.duckdb`, `${db}.duckdb`);
  return db;
}

const cli = (args: readonly string[], env: Record<string, string> = {}) =>
  spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } });

/** Runs `import FILE --db DB`; its wall time and its summary. */
function runImport(file: string, db: string): Promise<{ seconds: number; imported: number }> {
  return new Promise((done, reject) => {
    const started = performance.now();
    const child = cli(['import', file, '--db', db]);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`import exited with ${code}:\n${stderr}`));
      done({ seconds: (performance.now() - started) / 1000, imported: (JSON.parse(stdout.trim().split('\n').pop()!) as { imported: number }).imported });
    });
  });
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;

const file = join(dir, `export-${lines}.ndjson`);
await writeExport(file, lines, 'ndjson', SEED);
const newTarget = exportWorld(new Random(SEED), lines).targets[0]!.domain;

// The copy a load makes of the column file, alone.
const columnBytes = statSync(`${source}.duckdb`).size;
const copies: number[] = [];
for (let i = 0; i < 3; i++) {
  const started = performance.now();
  await copyFile(`${source}.duckdb`, join(dir, 'copy.duckdb'), constants.COPYFILE_FICLONE);
  copies.push(performance.now() - started);
  rmSync(join(dir, 'copy.duckdb'));
}
copies.sort((a, b) => a - b);

// The import alone.
const alone = await runImport(file, copyOfDb('alone.db'));

// The import beside a server, with calls streaming.
const db = copyOfDb('served.db');
const serve = cli(['serve', '--port', '0', '--db', db, '--quiet'], { BACKLINK_QUERY_KEYS: JSON.stringify([{ id: 'bench', key: KEY, units: 1e12, rate: 1e6, concurrency: 1000 }]) });
let banner = '';
serve.stdout.setEncoding('utf8').on('data', (chunk: string) => (banner += chunk));
serve.stderr.setEncoding('utf8').on('data', (chunk: string) => (banner += chunk));
const url = await new Promise<string>((done, reject) => {
  const timer = setInterval(() => {
    const match = /listening on (http:\/\/\S+)/.exec(banner);
    if (match) clearInterval(timer), done(match[1]!);
  }, 50);
  serve.on('close', () => reject(new Error(`serve ended:\n${banner}`)));
});
const get = async (path: string): Promise<{ status: number; body: { data: unknown } }> => {
  const response = await fetch(`${url}/_api/apis/v4/backlinks/v1/${path}`, { headers: { authorization: `Apikey ${KEY}` } });
  return { status: response.status, body: (await response.json()) as { data: unknown } };
};
const overviewOf = (domain: string) => `overview?url=${domain}&scope=ROOT_DOMAIN`;
const top = /url=([^&\s]+)&scope=ROOT_DOMAIN/.exec(banner)?.[1] ?? 'example.com';
const paths = [overviewOf(top), `links?url=${top}&scope=ROOT_DOMAIN&limit=100`];

const run: { phase: 'quiet' | 'load' | 'done' } = { phase: 'quiet' };
const latencies: Record<'quiet' | 'load', number[]> = { quiet: [], load: [] };
let failures = 0;
const stream = async (offset: number) => {
  for (let i = offset; run.phase !== 'done'; i++) {
    const now = run.phase;
    const started = performance.now();
    const { status } = await get(paths[i % paths.length]!);
    latencies[now].push(performance.now() - started);
    if (status !== 200) failures++;
  }
};
const streams = [0, 1, 0, 1].map(stream);
await new Promise((done) => setTimeout(done, Number(values.quiet) * 1000));
run.phase = 'load';
let committedAt: number | undefined;
let shownAt: number | undefined;
let shownLatency: number | undefined;
// The export's first target: no link before the load, all of them after it.
const watcher = (async () => {
  while (run.phase !== 'done' && shownAt === undefined) {
    const started = performance.now();
    const { status, body } = await get(overviewOf(newTarget));
    const row = (Array.isArray(body.data) ? body.data[0] : body.data) as { backlinks_count?: number } | undefined;
    if (status === 200 && (row?.backlinks_count ?? 0) > 0) {
      shownAt = performance.now();
      shownLatency = shownAt - started;
    }
    await new Promise((done) => setTimeout(done, 20));
  }
})();
const beside = await runImport(file, db);
committedAt = performance.now();
await watcher;
run.phase = 'done';
await Promise.all(streams);
serve.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

for (const list of Object.values(latencies)) list.sort((a, b) => a - b);
const out = [
  '### Loads beside a server',
  '',
  `Written by \`node --import tsx bench/load-beside-server.ts --db ${values.db} --lines ${lines}\` (${new Date().toISOString().slice(0, 10)}; ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end). A copy of the seeded database is served; four streams of calls (the largest target's overview and first links page, repeated) run for ${values.quiet} s, then while \`import\` loads ${lines.toLocaleString('en-US')} generated lines into the same files.`,
  '',
  '| | figure |',
  '| --- | ---: |',
  `| copy of the column file (${(columnBytes / 2 ** 20).toFixed(0)} MiB), median of 3 | ${ms(quantile(copies, 0.5))} |`,
  `| import alone (no server), wall | ${alone.seconds.toFixed(1)} s |`,
  `| the same import beside the server and its calls, wall | ${beside.seconds.toFixed(1)} s |`,
  `| calls before the load: count, p50, p99 | ${latencies.quiet.length}, ${ms(quantile(latencies.quiet, 0.5))}, ${ms(quantile(latencies.quiet, 0.99))} |`,
  `| calls during the load: count, p50, p99 | ${latencies.load.length}, ${ms(quantile(latencies.load, 0.5))}, ${ms(quantile(latencies.load, 0.99))} |`,
  `| failed calls (not 200) | ${failures} |`,
  `| the loaded target's first answer showing the load: its call's time (the new generation opened) | ${shownLatency === undefined ? 'never' : ms(shownLatency)} |`,
  `| ... when it came, from the import process's end (negative: before the process had exited) | ${shownAt === undefined || committedAt === undefined ? 'never' : ms(shownAt - committedAt)} |`,
  '',
];
process.stdout.write(`${out.join('\n')}\n`);
