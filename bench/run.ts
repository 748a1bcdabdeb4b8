/**
 * `npm run bench`: every benchmark, each as a ratio against a baseline measured in the same run.
 * The script is bundled by esbuild first (see package.json), so it measures the code as users run
 * it, without the name-keeping wrappers a TypeScript loader adds to every closure.
 */
import { printRatios } from './harness.js';
import { runParseBench } from './parse.bench.js';

async function main(): Promise<void> {
  console.log(`# backlink-query benchmarks (node ${process.version}, ${new Date().toISOString()})`);
  printRatios('Parse + validate vs @marcbachmann/cel-js parse (ratio = our time / its time)', runParseBench());
}

await main();
