/**
 * `npm run bench`: every benchmark, each as a ratio against a baseline measured in the same run.
 * The script is bundled by esbuild first (see package.json), so it measures the code as users run
 * it, without the name-keeping wrappers a TypeScript loader adds to every closure.
 *
 * `npm run bench -- parse sql` runs only the named groups.
 */
import { runClientBench } from './client.bench.js';
import { runEvaluateBench } from './evaluate.bench.js';
import { printRatios, type BenchRatio } from './harness.js';
import { runParseBench } from './parse.bench.js';
import { runSqlBench } from './sql.bench.js';

const groups: [name: string, title: string, run: () => BenchRatio[] | Promise<BenchRatio[]>][] = [
  ['parse', 'Parse + validate vs @marcbachmann/cel-js parse (ratio = our time / its time)', runParseBench],
  ['evaluate', 'Compiled predicate vs hand-written arrow function over the same records', runEvaluateBench],
  ['sql', 'Lowered SQL on SQLite, 1,000,000 rows, vs the hand-written SQL query with the same indexes', () => runSqlBench()],
  ['client', 'Client: typed CSV decode vs CSV libraries alone, call overhead vs bare fetch', runClientBench],
];

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  console.log(`# backlink-query benchmarks (node ${process.version}, ${new Date().toISOString()})`);
  for (const [name, title, run] of groups) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    printRatios(title, await run());
  }
}

await main();
