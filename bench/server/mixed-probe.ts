/**
 * The bench's mixed load (its twelve operations round robin, 50 connections) and the same calls one
 * at a time, against `serve` from the checkout it is run in, on the 50,000-link sample the bench
 * seeded (`.bench-data/embedded/links-50000.db`). For comparing two commits side by side (run it
 * from a worktree of each, on the same files), and for a CPU profile of the server (`--cpu-prof`:
 * V8's `.cpuprofile` files, one per thread, written when the server exits).
 *
 * Run: `npx tsx bench/server/mixed-probe.ts [--store embedded|sqlite] [--workers N] [--seconds 15] [--cpu-prof DIR]`
 * (run `npm run bench:server -- --sizes 50000 --stores embedded` once first to seed the sample).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadServerDeps } from '../../src/server/deps.js';
import { benchCalls, largestTargets, mixedCalls } from './calls.js';
import { NOW, writeKeyFile } from './databases.js';
import { load } from './load.js';
import { startServerProcess } from './server-process.js';

const { values } = parseArgs({ options: { store: { type: 'string', default: 'embedded' }, seconds: { type: 'string', default: '15' }, 'cpu-prof': { type: 'string' }, data: { type: 'string', default: '.bench-data' }, workers: { type: 'string', default: '1' } } });
const data = resolve(values.data);
const file = join(data, 'embedded', 'links-50000.db');
if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run bench:server -- --sizes 50000 --stores embedded --data ${data}\` once to seed it.`);
const { tldts } = await loadServerDeps();
const { openEmbeddedStore } = await import('../../src/server/store/engines/embedded/embedded-store.js');
const direct = await openEmbeddedStore({ file, readOnly: true });
const targets = await largestTargets(direct, tldts, { links: 50_000, seed: 1, now: new Date(NOW) });
await direct.close();

const serveArgs = [...(values.store === 'sqlite' ? ['--database-url', `sqlite:${file}`] : ['--db', file]), '--workers', values.workers];
const server = await startServerProcess(serveArgs, writeKeyFile(data), {
  cwd: process.cwd(),
  ...(values['cpu-prof'] ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', resolve(values['cpu-prof'])] } : {}),
});
const url = server.url;
try {
  const calls = mixedCalls(benchCalls(targets));
  const warm = await load(url, calls, { connections: 50, duration: 3 });
  const mixed = await load(url, calls, { connections: 50, duration: Number(values.seconds) });
  const single = await load(url, calls, { connections: 1, duration: 5 });
  console.log(
    JSON.stringify({
      store: values.store,
      workers: Number(values.workers),
      mixed: { connections: 50, rps: Math.round(mixed.rps), p50: +mixed.p50.toFixed(2), p99: +mixed.p99.toFixed(2), status: mixed.statusCodes },
      single: { connections: 1, rps: Math.round(single.rps), p50: +single.p50.toFixed(3), p99: +single.p99.toFixed(2) },
      // Every call the server answered (warm-up included): what a --cpu-prof profile covers.
      calls: [warm, mixed, single].reduce((total, run) => total + Object.values(run.statusCodes).reduce((a, b) => a + b, 0), 0),
    }),
  );
} finally {
  await server.stop();
}
