/**
 * The compiled predicate over 1,000,000 records against a hand-written arrow function for the same
 * filter, in the same run: (a) 'code' mode, goal at most 1.15x the arrow's time; (b) 'closure'
 * mode, goal at most 2x.
 *
 * Run alone: `npx tsx bench/evaluate.bench.ts`
 */
import { compilePredicate, type Row } from '../src/evaluate/index.js';
import { parseFilter } from '../src/syntax/parse.js';
import { compare, medianOfRatios, printRatios, type BenchRatio } from './harness.js';

const RECORDS = 1_000_000;

interface Link {
  anchor: string;
  domain_score: number;
  is_nofollow: boolean;
  first_seen_at: string;
}

/** A million link records of one shape, as the service returns them (deterministic). */
function makeRecords(): Link[] {
  const words = ['seo', 'tips', 'Best', 'guide', 'news', 'shop', 'blog', 'review'];
  const records: Link[] = [];
  let seed = 42;
  const next = (): number => (seed = (seed * 1103515245 + 12345) >>> 0);
  for (let i = 0; i < RECORDS; i++) {
    const month = String((next() % 12) + 1).padStart(2, '0');
    records.push({
      anchor: `${words[next() % 8]} ${words[next() % 8]} ${next() % 1000}`,
      domain_score: next() % 101,
      is_nofollow: next() % 2 === 0,
      first_seen_at: `2024-${month}-15T10:30:00`,
    });
  }
  return records;
}

interface Case {
  readonly name: string;
  readonly filter: string;
  readonly arrow: (r: Link) => boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'number AND (LIKE OR boolean)',
    filter: "domain_score > 50 AND (anchor LIKE '%seo%' OR is_nofollow = true)",
    arrow: (r) => r.domain_score > 50 && (r.anchor.includes('seo') || r.is_nofollow === true),
  },
  {
    name: 'timestamp range AND prefix LIKE',
    filter: "first_seen_at >= '2024-03' AND first_seen_at < '2024-09' AND anchor LIKE 'Best%'",
    arrow: (r) => r.first_seen_at >= '2024-03' && r.first_seen_at < '2024-09' && r.anchor.startsWith('Best'),
  },
];

// One loop per contender, each its own function literal, so no call site is shared between them.
function countOurs(records: readonly Link[], test: (r: Row) => boolean): number {
  let n = 0;
  for (let i = 0; i < records.length; i++) if (test(records[i] as unknown as Row)) n++;
  return n;
}
function countClosure(records: readonly Link[], test: (r: Row) => boolean): number {
  let n = 0;
  for (let i = 0; i < records.length; i++) if (test(records[i] as unknown as Row)) n++;
  return n;
}
function countArrow(records: readonly Link[], test: (r: Link) => boolean): number {
  let n = 0;
  for (let i = 0; i < records.length; i++) if (test(records[i]!)) n++;
  return n;
}

/** Runs the evaluator benchmark and returns its ratios (ours time / arrow time). */
export async function runEvaluateBench(): Promise<BenchRatio[]> {
  const records = makeRecords();
  const results: BenchRatio[] = [];
  for (const c of CASES) {
    const filter = parseFilter(c.filter, { operation: 'links' });
    const code = compilePredicate(filter, { mode: 'code' });
    const closure = compilePredicate(filter, { mode: 'closure' });
    const expected = countArrow(records, c.arrow);
    if (countOurs(records, code) !== expected || countClosure(records, closure) !== expected) {
      throw new Error(`bench case ${c.name}: the compiled predicate and the arrow disagree`);
    }
    const options = { samples: 5, sampleMs: 150 };
    const arrow = (): number => countArrow(records, c.arrow);
    results.push(medianOfRatios(() => compare(`(a) code mode, ${c.name}`, () => countOurs(records, code), arrow, { ...options, goal: 1.15 }), 5));
    results.push(medianOfRatios(() => compare(`(b) closure mode, ${c.name}`, () => countClosure(records, closure), arrow, { ...options, goal: 2 }), 5));
  }
  return results;
}

// Run alone only when this file is the entry point (not when bundled into `bench/run.ts`).
if (/(^|[\\/])evaluate\.bench\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  printRatios(`Evaluator over ${RECORDS.toLocaleString('en-US')} records vs a hand-written arrow (ratio = our time / arrow time)`, await runEvaluateBench());
}
