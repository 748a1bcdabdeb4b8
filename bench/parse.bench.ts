/**
 * Parse + validate of filters against two baselines measured in the same run:
 * - the floor any Chevrotain front end stands on: Chevrotain's lexer and our grammar's parser
 *   building the AST, with no checks at all (goal: parse + validate at most 1.1x that floor);
 * - @marcbachmann/cel-js parsing the same expressions in CEL (the fastest peer parser we know
 *   of): no goal, the ratio states the gap.
 * And the parse cache's hit path (`safeParseFilter(text, { operation, cache: true })` for a text
 * parsed before) against a parse + validate of the same text, and `complete` at the end of a
 * filter (a keystroke in an editor) against a parse + validate of it.
 *
 * Run alone: `npx tsx bench/parse.bench.ts`
 */
import { parse as parseCel } from '@marcbachmann/cel-js';
import { complete, safeParseFilter } from '../src/index.js';
import { fastParser } from '../src/syntax/parser.js';
import { filterLexer } from '../src/syntax/tokens.js';
import { comparePaired, printRatios, type BenchRatio } from './harness.js';

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
  const again = safeParseFilter(text, { operation: 'links', cache: true });
  if (!again.ok || safeParseFilter(text, { operation: 'links', cache: true }) !== again) throw new Error('the parse cache does not answer a repeated filter');
}

/**
 * Runs the parse benchmark and returns the ratios (ours time / baseline time): parse + validate
 * against the Chevrotain floor (goal 1.1) and against cel-js (the gap), the floor itself against
 * cel-js, and the cache's hit path against an uncached parse + validate.
 */
export function runParseBench(): BenchRatio[] {
  const big = bigFilters();
  const bigName = `${big.filter.length}-character filter`;
  mustParse(TYPICAL);
  mustParse(big.filter);
  parseOnly(TYPICAL);
  parseOnly(big.filter);
  parseCel(TYPICAL_CEL);
  parseCel(big.cel);
  const ours = (text: string) => () => safeParseFilter(text, { operation: 'links' });
  const cached = (text: string) => () => safeParseFilter(text, { operation: 'links', cache: true });
  const floor = (text: string) => () => parseOnly(text);
  const typical = { bytes: TYPICAL.length };
  const large = { bytes: big.filter.length };
  return [
    // The goal: what our checks add to the parse itself.
    comparePaired('typical filter: parse + validate vs Chevrotain lexer + parser (no checks)', ours(TYPICAL), floor(TYPICAL), { ...typical, goal: 1.1 }),
    comparePaired(`${bigName}: parse + validate vs Chevrotain lexer + parser (no checks)`, ours(big.filter), floor(big.filter), { ...large, goal: 1.1 }),
    // The gap to the fastest peer, and where it lies: Chevrotain's lexer, then its parser.
    comparePaired('typical filter: parse + validate vs cel-js parse', ours(TYPICAL), () => parseCel(TYPICAL_CEL), typical),
    comparePaired(`${bigName}: parse + validate vs cel-js parse`, ours(big.filter), () => parseCel(big.cel), large),
    comparePaired('typical: Chevrotain lexer alone vs cel-js parse', () => filterLexer.tokenize(TYPICAL), () => parseCel(TYPICAL_CEL), typical),
    comparePaired('typical: Chevrotain lexer + parser (no checks) vs cel-js parse', floor(TYPICAL), () => parseCel(TYPICAL_CEL), typical),
    // The parse cache (option `cache`): a filter seen before, against parsing it again.
    comparePaired('typical filter: cache hit vs parse + validate', cached(TYPICAL), ours(TYPICAL), typical),
    comparePaired(`${bigName}: cache hit vs parse + validate`, cached(big.filter), ours(big.filter), large),
    // As a server meets it: the text arrives as a new string each time (its hash not yet known),
    // both sides get the same kind of copy.
    comparePaired(`${bigName}, a new string each call: cache hit vs parse + validate`, () => cachedCopy(big.filter), () => oursCopy(big.filter), large),
    // Completion on a keystroke: the whole text before the cursor is parsed once (no recovery),
    // then content assist reads the open groups and the last condition. No goal: the ratio says
    // what a keystroke costs next to checking the same text.
    comparePaired('typical filter + " AND ": complete at the end vs parse + validate', completeAtEnd(`${TYPICAL} AND `), ours(TYPICAL), typical),
    comparePaired(`${bigName} cut before its last condition: complete at the end vs parse + validate`, completeAtEnd(cutBeforeLast(big.filter)), ours(big.filter), large),
  ];
}

/** `complete` at the end of `text`, for links; checked once to offer something. */
function completeAtEnd(text: string): () => unknown {
  if (complete(text, text.length, { operation: 'links' }).length === 0) throw new Error(`nothing to complete after ${text.slice(-40)}`);
  return () => complete(text, text.length, { operation: 'links' });
}

/** The text up to and including its last AND (a cursor where the next condition starts). */
const cutBeforeLast = (text: string): string => text.slice(0, text.lastIndexOf(' AND ') + 5);

/** A new string with the same text (a copy, as a request's decoded query gives a server). */
const copyOf = (text: string): string => `${text} `.slice(0, -1);
const cachedCopy = (text: string) => safeParseFilter(copyOf(text), { operation: 'links', cache: true });
const oursCopy = (text: string) => safeParseFilter(copyOf(text), { operation: 'links' });

/** The floor: Chevrotain's lexer and our grammar's parser building the AST, nothing checked. */
function parseOnly(text: string): unknown {
  fastParser.load(filterLexer.tokenize(text).tokens);
  const filter = fastParser.filter();
  if (filter === undefined) throw new Error('the floor parse built no AST');
  return filter;
}

if (process.argv[1]?.endsWith("parse.bench.ts")) {
  printRatios('Parse + validate vs the Chevrotain floor and vs @marcbachmann/cel-js parse', runParseBench());
}
