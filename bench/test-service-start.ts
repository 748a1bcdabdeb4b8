/**
 * How long `createTestService()` takes to start with the default sample (1,000 links, seed 1), for
 * bench/RESULTS.md ("The test service's start"). Each run is a fresh process (module loading is
 * timed apart from the start); the script runs it `--runs` times (default 5) and prints each run and
 * the median. Bundled first, as `npm run bench` does, so that no TypeScript is compiled while timed:
 *
 *   npx esbuild bench/test-service-start.ts --bundle --platform=node --format=esm --packages=external --outfile=.tmp/bench/test-service-start.mjs --log-level=warning
 *   node .tmp/bench/test-service-start.mjs --runs 5
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const loading = performance.now();
  const { createTestService } = await import('../src/testing/index.js');
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
  console.log(JSON.stringify({ load: loaded - loading, start: started - loaded, firstCall: answered - started, firstMetrics: metrics - answered, firstMetricsCpu: (metricsUsed.user + metricsUsed.system) / 1000, cpu: (used.user + used.system) / 1000 }));
} else {
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 5;
  const self = fileURLToPath(import.meta.url);
  const results: { load: number; start: number; cpu: number; firstCall: number; firstMetrics: number; firstMetricsCpu: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const result = JSON.parse(execFileSync(process.execPath, [self, '--child'], { encoding: 'utf8' })) as (typeof results)[number];
    results.push(result);
    console.log(`run ${i + 1}: start ${result.start.toFixed(0)} ms, CPU ${result.cpu.toFixed(0)} ms (module load ${result.load.toFixed(0)} ms, first call (overview) ${result.firstCall.toFixed(0)} ms, first keywordMetrics call ${result.firstMetrics.toFixed(0)} ms, CPU ${result.firstMetricsCpu.toFixed(0)} ms)`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`median of ${runs}: start ${median(results.map((r) => r.start)).toFixed(0)} ms, CPU ${median(results.map((r) => r.cpu)).toFixed(0)} ms, module load ${median(results.map((r) => r.load)).toFixed(0)} ms, first keywordMetrics call ${median(results.map((r) => r.firstMetrics)).toFixed(0)} ms, CPU ${median(results.map((r) => r.firstMetricsCpu)).toFixed(0)} ms`);
}
