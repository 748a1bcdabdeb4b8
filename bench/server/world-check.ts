/**
 * Draws the sample generator's world (targets and referring domains) for a number of links and
 * prints how long it took: the benchmark runs it, with a time limit, before it seeds a size, because
 * a world the generator cannot draw would hang the seed with no output.
 *
 *   node --import tsx bench/server/world-check.ts LINKS SEED
 */
import { performance } from 'node:perf_hooks';
import { Random } from '../../src/server/sample/random.js';
import { makeWorld } from '../../src/server/sample/world.js';

const links = Number(process.argv[2]);
const seed = Number(process.argv[3] ?? 1);
const started = performance.now();
const world = makeWorld(new Random(seed), links);
process.stdout.write(
  `${JSON.stringify({ links, seed, targets: world.targets.length, referrers: world.referrers.length, seconds: (performance.now() - started) / 1000 })}\n`,
);
