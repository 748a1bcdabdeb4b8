/**
 * How long `createTestService()` takes to start with the default sample (1,000 links, seed 1), for
 * bench/RESULTS.md ("Starting the test service"), in wall and CPU time. Each run is a fresh process
 * (importing `backlink-query/testing` is timed apart from the start); the script runs it `--runs`
 * times (default 5) and prints each run and the medians. Each run also times the first call, the
 * first `keywordMetrics` call, a second service started in the same process, and what
 * `backlink-query seed --links 1000` writes (`seedSample` into a SQLite database in memory), whose
 * keyword snapshots take the same writer. Bundled first, as `npm run bench` does, so that no
 * TypeScript is compiled while timed:
 *
 *   npx esbuild bench/test-service-start.ts --bundle --platform=node --format=esm --packages=external --outfile=.tmp/bench/test-service-start.mjs --log-level=warning
 *   node .tmp/bench/test-service-start.mjs --runs 5
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const loading = performance.now();
  const { createTestService } = await import('../src/test-service/index.js');
  const loaded = performance.now();
  const cpu = process.cpuUsage();
  const service = await createTestService();
  const started = performance.now();
  const used = process.cpuUsage(cpu);
  await service.client.overview({ url: service.sample!.topTarget, scope: 'ROOT_DOMAIN' });
  const answered = performance.now();
  const metricsCpu = process.cpuUsage();
  await service.client.keywordMetrics({ keyword: 'seo tools', country: 'US' });
  const metrics = performance.now();
  const metricsUsed = process.cpuUsage(metricsCpu);
  await service.close();
  // A second service in the same process (another describe of the same test file): modules loaded.
  const againCpu = process.cpuUsage();
  const restarting = performance.now();
  const again = await createTestService();
  const restarted = performance.now();
  const againUsed = process.cpuUsage(againCpu);
  await again.close();
  const { loadServerDeps } = await import('../src/server/deps.js');
  const { seedSample } = await import('../src/server/sample/generate.js');
  const { openSqliteStore } = await import('../src/server/store/engines/sqlite/sqlite-store.js');
  const store = await openSqliteStore();
  const seeding = performance.now();
  const seedCpu = process.cpuUsage();
  await seedSample(store, (await loadServerDeps()).tldts, { links: 1_000, seed: 1 });
  const seeded = performance.now();
  const seedUsed = process.cpuUsage(seedCpu);
  await store.close();
  console.log(JSON.stringify({ load: loaded - loading, start: started - loaded, firstCall: answered - started, firstMetrics: metrics - answered, firstMetricsCpu: (metricsUsed.user + metricsUsed.system) / 1000, cpu: (used.user + used.system) / 1000, seed: seeded - seeding, seedCpu: (seedUsed.user + seedUsed.system) / 1000, second: restarted - restarting, secondCpu: (againUsed.user + againUsed.system) / 1000 }));
} else {
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 5;
  const self = fileURLToPath(import.meta.url);
  const results: { load: number; start: number; cpu: number; firstCall: number; firstMetrics: number; firstMetricsCpu: number; seed: number; seedCpu: number; second: number; secondCpu: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const result = JSON.parse(execFileSync(process.execPath, [self, '--child'], { encoding: 'utf8' })) as (typeof results)[number];
    results.push(result);
    console.log(`run ${i + 1}: start ${result.start.toFixed(0)} ms, CPU ${result.cpu.toFixed(0)} ms (module load ${result.load.toFixed(0)} ms, second start ${result.second.toFixed(0)} ms, CPU ${result.secondCpu.toFixed(0)} ms, first call (overview) ${result.firstCall.toFixed(0)} ms, first keywordMetrics call ${result.firstMetrics.toFixed(0)} ms, CPU ${result.firstMetricsCpu.toFixed(0)} ms; seedSample ${result.seed.toFixed(0)} ms, CPU ${result.seedCpu.toFixed(0)} ms)`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`median of ${runs}: start ${median(results.map((r) => r.start)).toFixed(0)} ms, CPU ${median(results.map((r) => r.cpu)).toFixed(0)} ms, module load ${median(results.map((r) => r.load)).toFixed(0)} ms, second start ${median(results.map((r) => r.second)).toFixed(0)} ms, CPU ${median(results.map((r) => r.secondCpu)).toFixed(0)} ms, first keywordMetrics call ${median(results.map((r) => r.firstMetrics)).toFixed(0)} ms, CPU ${median(results.map((r) => r.firstMetricsCpu)).toFixed(0)} ms; seedSample ${median(results.map((r) => r.seed)).toFixed(0)} ms, CPU ${median(results.map((r) => r.seedCpu)).toFixed(0)} ms`);
}
