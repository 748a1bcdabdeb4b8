/**
 * `npm run bench`: every benchmark, each as a ratio against a baseline measured in the same run.
 * The script is bundled by esbuild first (see package.json), so it measures the code as users run
 * it, without the name-keeping wrappers a TypeScript loader adds to every closure.
 *
 * `npm run bench -- parse sql` runs only the named groups; `npm run bench -- call` runs only the
 * client's call overhead (part of the `client` group, which also decodes CSV for minutes).
 */
import { runCallBench, runClientBench } from './client.bench.js';
import { runEvaluateBench } from './evaluate.bench.js';
import { runImportBench } from './import.bench.js';
import { printRatios, type BenchRatio } from './harness.js';
import { runParseBench } from './parse.bench.js';
import { runSqlBench } from './sql.bench.js';

const groups: [name: string, title: string, run: () => BenchRatio[] | Promise<BenchRatio[]>, onlyWhenNamed?: boolean][] = [
  ['parse', 'Parse + validate vs the Chevrotain lexer + parser floor (goal) and vs @marcbachmann/cel-js parse (the gap); parse cache hits (ratio = our time / baseline time, median of paired samples)', runParseBench],
  ['evaluate', 'Compiled predicate vs hand-written arrow function over the same records', runEvaluateBench],
  ['sql', 'Lowered SQL on SQLite, 1,000,000 rows, vs the hand-written SQL query with the same indexes', () => runSqlBench()],
  ['client', 'Client: typed CSV decode vs CSV libraries alone, call overhead vs bare fetch (calls: median of paired samples)', runClientBench],
  ['import', 'Import reader: the records of an export file vs csv-parse alone (median of paired samples)', runImportBench],
  ['call', 'Client call overhead vs bare fetch (median of paired samples)', runCallBench, true],
];

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  console.log(`# backlink-query benchmarks (node ${process.version}, ${new Date().toISOString()})`);
  for (const [name, title, run, onlyWhenNamed] of groups) {
    if (wanted.length > 0 ? !wanted.includes(name) : onlyWhenNamed) continue;
    printRatios(title, await run());
  }
}

await main();
