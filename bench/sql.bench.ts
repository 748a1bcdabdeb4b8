/**
 * (c) A filtered query on 1,000,000 rows in SQLite through `toSql`, against the same query written
 * by hand, with the same indexes, in the same run (goal: at most 1.1x, i.e. the lowering never
 * defeats an index). Each case also prints the query plans, which must name the same index.
 *
 * Run alone: `npx tsx bench/sql.bench.ts`
 */
import Database from 'better-sqlite3';
import { toSql } from '../src/sql/index.js';
import { parseFilter } from '../src/syntax/parse.js';
import { compare, medianOfRatios, printRatios, type BenchRatio } from './harness.js';

const ROWS = 1_000_000;

interface Case {
  readonly name: string;
  readonly filter: string;
  /** The WHERE clause a careful person would write by hand for the same meaning. */
  readonly handWritten: string;
  readonly handParameters: readonly unknown[];
}

const CASES: readonly Case[] = [
  { name: 'integer range, decimal literal', filter: 'domain_score > 98.5', handWritten: 'domain_score > ?', handParameters: [98.5] },
  {
    name: 'timestamp range',
    filter: "first_seen_at >= '2024-06-01' AND first_seen_at < '2024-06-03'",
    handWritten: 'first_seen_at >= ? AND first_seen_at < ?',
    handParameters: ['2024-06-01', '2024-06-03'],
  },
  { name: 'text equality', filter: "anchor = 'seo tips 4242'", handWritten: 'anchor = ?', handParameters: ['seo tips 4242'] },
  // By hand, exact case-sensitive prefix matching in SQLite is GLOB (LIKE ignores ASCII case).
  { name: 'prefix LIKE', filter: "anchor LIKE 'seo tips 42%'", handWritten: 'anchor GLOB ?', handParameters: ['seo tips 42*'] },
];

function createDatabase(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE links (id INTEGER PRIMARY KEY, anchor TEXT NOT NULL, domain_score INTEGER NOT NULL,
    is_nofollow INTEGER NOT NULL, first_seen_at TEXT NOT NULL)`);
  const insert = db.prepare('INSERT INTO links (anchor, domain_score, is_nofollow, first_seen_at) VALUES (?, ?, ?, ?)');
  const words = ['seo', 'tips', 'Best', 'guide', 'news', 'shop', 'blog', 'review'];
  let seed = 0x9e3779b9;
  // xorshift32: deterministic, and its low bits are as good as its high ones.
  const next = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>>= 0);
  };
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const day = String((next() % 28) + 1).padStart(2, '0');
      const month = String((next() % 12) + 1).padStart(2, '0');
      insert.run(`${words[next() % 8]} ${words[next() % 8]} ${next() % 10000}`, next() % 101, next() % 2, `2024-${month}-${day}T10:30:00`);
    }
  })();
  db.exec('CREATE INDEX links_anchor ON links (anchor); CREATE INDEX links_score ON links (domain_score); CREATE INDEX links_seen ON links (first_seen_at)');
  db.exec('ANALYZE');
  return db;
}

function plan(db: Database.Database, where: string, parameters: readonly unknown[]): string {
  const rows = db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM links WHERE ${where}`).all(...parameters) as { detail: string }[];
  return rows.map((r) => r.detail).join('; ');
}

/** Runs the SQLite benchmark and returns its ratios (toSql time / hand-written time). */
export async function runSqlBench(log: (line: string) => void = console.log): Promise<BenchRatio[]> {
  const db = createDatabase();
  const results: BenchRatio[] = [];
  for (const c of CASES) {
    const lowered = toSql(parseFilter(c.filter, { operation: 'links' }), { dialect: 'sqlite' });
    const ours = db.prepare(`SELECT count(*) AS n FROM links WHERE ${lowered.sql}`);
    const hand = db.prepare(`SELECT count(*) AS n FROM links WHERE ${c.handWritten}`);
    const a = (ours.get(...lowered.parameters) as { n: number }).n;
    const b = (hand.get(...c.handParameters) as { n: number }).n;
    if (a !== b) throw new Error(`bench case ${c.name}: toSql counts ${a} rows, the hand-written query ${b}`);
    log(`- ${c.name} (${a} rows): toSql \`${lowered.sql}\` -> ${plan(db, lowered.sql, lowered.parameters)}; by hand -> ${plan(db, c.handWritten, c.handParameters)}`);
    results.push(
      medianOfRatios(() =>
        compare(`(c) SQLite ${c.name}`, () => ours.get(...lowered.parameters), () => hand.get(...c.handParameters), { samples: 5, sampleMs: 100, goal: 1.1 }),
      ),
    );
  }
  db.close();
  return results;
}

// Run alone only when this file is the entry point (not when bundled into `bench/run.ts`).
if (/(^|[\\/])sql\.bench\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  const ratios = await runSqlBench();
  printRatios(`SQLite, ${ROWS.toLocaleString('en-US')} rows: toSql vs the same query by hand, same indexes (ratio = toSql time / hand time)`, ratios);
}
