/**
 * Parse + validate of filters, beside the same expressions parsed by @marcbachmann/cel-js (the
 * fastest peer parser we know of) in the same run.
 *
 * Run alone: `npx tsx bench/parse.bench.ts`
 */
import { parse as parseCel } from '@marcbachmann/cel-js';
import { safeParseFilter } from '../src/index.js';
import { fastParser } from '../src/syntax/parser.js';
import { filterLexer } from '../src/syntax/tokens.js';
import { compare, printRatios, type BenchRatio } from './harness.js';

/** The typical filter of the issue, and its CEL twin. */
export const TYPICAL = "domain_score > 50 AND (anchor LIKE '%seo%' OR is_nofollow = true)";
const TYPICAL_CEL = 'domain_score > 50 && (anchor.contains("seo") || is_nofollow == true)';

/** A filter of close to 4 KB and at most 100 conditions, and its CEL twin. */
export function bigFilters(): { filter: string; cel: string } {
  const parts: string[] = [];
  const cel: string[] = [];
  for (let i = 0; ; i++) {
    const part = `(domain_score >= ${i} AND anchor LIKE '%search engine optimisation ${i}%' AND is_nofollow = false)`;
    const next = [...parts, part].join(' OR ');
    if (next.length > 4096 || (parts.length + 1) * 3 > 100) break;
    parts.push(part);
    cel.push(`(domain_score >= ${i} && anchor.contains("search engine optimisation ${i}") && is_nofollow == false)`);
  }
  return { filter: parts.join(' OR '), cel: cel.join(' || ') };
}

function mustParse(text: string): void {
  const result = safeParseFilter(text, { operation: 'links' });
  if (!result.ok) throw new Error(`bench filter is invalid: ${result.issues[0]!.message}`);
}

/** Runs the parse benchmark and returns the ratios (ours = parse + validate; baseline = cel-js parse). */
export function runParseBench(): BenchRatio[] {
  const big = bigFilters();
  mustParse(TYPICAL);
  mustParse(big.filter);
  parseCel(TYPICAL_CEL);
  parseCel(big.cel);
  return [
    compare('typical filter', () => safeParseFilter(TYPICAL, { operation: 'links' }), () => parseCel(TYPICAL_CEL), {
      bytes: TYPICAL.length,
      goal: 1,
    }),
    compare(`${big.filter.length}-character filter`, () => safeParseFilter(big.filter, { operation: 'links' }), () => parseCel(big.cel), {
      bytes: big.filter.length,
      goal: 1,
    }),
    // The floor any Chevrotain front end stands on: its lexer alone, then lexer + parser building
    // the AST with no checks, each against the same cel-js parse. What remains between these and
    // the full parse + validate is our own checking.
    compare('typical: Chevrotain lexer alone', () => filterLexer.tokenize(TYPICAL), () => parseCel(TYPICAL_CEL), { bytes: TYPICAL.length }),
    compare('typical: Chevrotain lexer + parser, no checks', () => parseOnly(TYPICAL), () => parseCel(TYPICAL_CEL), { bytes: TYPICAL.length }),
  ];
}

function parseOnly(text: string): unknown {
  fastParser.load(filterLexer.tokenize(text).tokens);
  return fastParser.filter();
}

if (process.argv[1]?.endsWith("parse.bench.ts")) {
  printRatios('Parse + validate vs @marcbachmann/cel-js parse', runParseBench());
}
