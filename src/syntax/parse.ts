/**
 * The only door into the front end: text in, an AST or every issue found out.
 *
 * @module
 */
import type { ILexingError, ILexingResult, IRecognitionException, IToken, TokenType } from 'chevrotain';
import type { Condition, FilterNode } from '../ast/nodes.js';
import { FilterError, ParameterError } from '../errors/filter-error.js';
import { finishIssues } from '../errors/format.js';
import type { FilterIssue, IssueDraft } from '../errors/issue.js';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../validate/limits.js';
import { checkTargetOptions, validateConditionsOf, type TargetOptions } from '../validate/validate.js';
import type { OperationName } from '../catalogue/operations.js';
import { BoundedCache, textBytes } from '../shared/bounded-cache.js';
import { deepFreezeFilter } from './freeze.js';
import { hinted } from './hints.js';
import { checkString, isNumberOutOfRange } from './literals.js';
import { fastParser, filterParser, PARSE_STOPPED, type FilterParser } from './parser.js';
import * as t from './tokens.js';

/** Options of {@link parseFilter} and {@link safeParseFilter}. */
export interface ParseOptions extends Partial<TargetOptions> {
  /**
   * The operation whose fields the filter may use (`'links'`, `'ref-domains'`, `'matrix'`, ...).
   * Without it only the syntax and the limits are checked.
   */
  readonly operation?: string;
  /** Limits to apply instead of the defaults (4,096 characters, depth 32, 100 conditions). */
  readonly limits?: Partial<Limits>;
  /**
   * Keep the result in the shared parse cache (the most recently used results of filters of at
   * most 4,096 characters: room for 256 of that length, more of shorter ones), and answer a filter
   * parsed before for the same operation, targets and limits from it. Meant for servers that see the same filters again and again. A cached result
   * is deeply frozen (the AST, its spans, the issues) and is the same object for every caller.
   * Default `false`.
   */
  readonly cache?: boolean;
  /**
   * Stop looking for issues once this many are found (default: no bound, every issue). The result
   * then lists at most `maxIssues` issues, the first of the text exactly as the full list begins
   * (rarely fewer than `maxIssues`: the parse stops at its `2 * maxIssues + 1`-th error, and only
   * what lies before that error is reported), and says `truncated: true`: there are more, or
   * checking stopped before the end of the text. The work a filter with many errors costs (the
   * recovering parser, did-you-mean for each unknown field) then stops growing with its errors: a
   * server answering untrusted filters sets it.
   */
  readonly maxIssues?: number;
}

/** The result of {@link safeParseFilter}. */
export type ParseResult =
  | { readonly ok: true; readonly filter: FilterNode }
  | {
      readonly ok: false;
      readonly issues: readonly FilterIssue[];
      /** Set when `maxIssues` cut the search short: the filter has more issues than listed, or may have. */
      readonly truncated?: true;
    };

/** Longer texts are parsed but not kept. */
const MAX_CACHED_LENGTH = 4096;

/** The estimated bytes of a cached result besides its text's (the AST or the issues, the context). */
const RESULT_BYTES = 1024;

/** How many results of the longest texts kept the parse cache (option `cache` of {@link safeParseFilter}) has room for; more of shorter ones. @internal */
export const PARSE_CACHE_SIZE = 256;

/** The parse cache's bound, on the estimated bytes of its results: {@link PARSE_CACHE_SIZE} of the longest texts kept. @internal */
export const PARSE_CACHE_BYTES = PARSE_CACHE_SIZE * (RESULT_BYTES + 2 * MAX_CACHED_LENGTH);

/** One cached result and what it depends on besides the text. */
interface CacheEntry {
  readonly operation: OperationName | undefined;
  readonly targets: number | undefined;
  readonly limits: Limits;
  readonly maxIssues: number;
  readonly result: ParseResult;
}

/**
 * Keyed by the text itself (a key built by concatenation would copy and hash the whole text on
 * every lookup); the few contexts a text is parsed for (operation, targets, limits) sit in a list.
 * Each result is counted as {@link RESULT_BYTES} and its text's.
 */
const parseCache = new BoundedCache<string, CacheEntry[]>(PARSE_CACHE_BYTES, (entries, text) => entries.length * (RESULT_BYTES + textBytes(text)));

/** Empties the parse cache (for tests and benchmarks). @internal */
export function clearParseCache(): void {
  parseCache.clear();
}

const sameLimits = (a: Limits, b: Limits) => a === b || (a.maxLength === b.maxLength && a.maxDepth === b.maxDepth && a.maxConditions === b.maxConditions);

function cachedParse(text: string, limits: Limits, operation: OperationName | undefined, targets: number | undefined, maxIssues: number): ParseResult {
  const entries = parseCache.get(text);
  if (entries !== undefined) {
    for (const entry of entries) {
      if (entry.operation === operation && entry.targets === targets && entry.maxIssues === maxIssues && sameLimits(entry.limits, limits)) return entry.result;
    }
  }
  const result = freezeResult(parseUncached(text, limits, operation, targets, maxIssues));
  const entry: CacheEntry = { operation, targets, limits: limits === DEFAULT_LIMITS ? limits : Object.freeze({ ...limits }), maxIssues, result };
  // A text parsed for many contexts keeps the most recent few.
  parseCache.set(text, entries === undefined ? [entry] : [entry, ...entries.slice(0, 7)]);
  return result;
}

/**
 * Parses (and, given an operation, validates) a filter, returning a result instead of throwing.
 * Issues come sorted by offset; as many as can be found are reported together.
 *
 * @example
 * ```ts
 * const result = safeParseFilter("domain_score > 50 AND anchor LIKE '%seo%'", { operation: 'links' });
 * if (result.ok) console.log(printFilter(result.filter));
 * else for (const issue of result.issues) console.log(issue.code, issue.offset);
 * ```
 */
export function safeParseFilter(text: string, options: ParseOptions = {}): ParseResult {
  // `null` options (from JavaScript callers) mean no options, like `undefined`.
  const opts: ParseOptions = options ?? {};
  const limits = resolveLimits(opts.limits ?? undefined);
  const operation = opts.operation === undefined ? undefined : checkTargetOptions(opts.operation, opts.targets);
  const maxIssues = checkMaxIssues(opts.maxIssues);
  if (opts.cache === true && typeof text === 'string' && text.length <= MAX_CACHED_LENGTH) return cachedParse(text, limits, operation, opts.targets, maxIssues);
  return parseUncached(text, limits, operation, opts.targets, maxIssues);
}

/** `maxIssues` as given: at least 1 (or Infinity, the default). */
function checkMaxIssues(maxIssues: number | undefined): number {
  if (maxIssues === undefined || maxIssues === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (Number.isInteger(maxIssues) && maxIssues >= 1) return maxIssues;
  throw new ParameterError('maxIssues', 'invalid_value', 'maxIssues must be a positive integer or Infinity.');
}

function parseUncached(text: string, limits: Limits, operation: OperationName | undefined, targets: number | undefined, maxIssues: number): ParseResult {
  const analysis = analyse(text, limits, operation, targets, maxIssues);
  if (analysis.issues.length === 0) return { ok: true, filter: analysis.filter! };
  if (!analysis.stopped && analysis.issues.length <= maxIssues) return { ok: false, issues: finishIssues(analysis.issues, textOf(text)) };
  // Only the issues listed get their message, line and column.
  const first = [...analysis.issues].sort(byPlace).slice(0, maxIssues);
  return { ok: false, issues: finishIssues(first, textOf(text)), truncated: true };
}

const byPlace = (a: IssueDraft, b: IssueDraft) => a.offset - b.offset || a.length - b.length;

/** A result made safe to share: the AST, its spans and the issues frozen. */
function freezeResult(result: ParseResult): ParseResult {
  if (result.ok) deepFreezeFilter(result.filter);
  else Object.freeze(result.issues);
  return Object.freeze(result);
}

/** The text issues point into: a non-string input (from JavaScript callers) points into nothing. */
const textOf = (text: unknown): string => (typeof text === 'string' ? text : '');

/**
 * Parses (and, given an operation, validates) a filter; throws {@link FilterError} carrying every
 * issue when there is any.
 *
 * @example
 * ```ts
 * const filter = parseFilter('domain_score > 50 AND is_nofollow = false', { operation: 'links' });
 * filter.kind; // 'And'
 * ```
 */
export function parseFilter(text: string, options: ParseOptions = {}): FilterNode {
  const result = safeParseFilter(text, options);
  if (!result.ok) throw new FilterError(result.issues, textOf(text));
  return result.filter;
}

interface Analysis {
  readonly issues: IssueDraft[];
  readonly filter?: FilterNode | undefined;
  /** The recovering parser stopped at its error budget (`maxIssues`): the text past it was not checked. */
  readonly stopped?: boolean;
}

/**
 * Every issue of `text`, and its AST; `operation` and `targets` are already checked. With
 * `maxIssues`, the recovering parser stops at its `2 * maxIssues + 1`-th error and the field and
 * type checks after `maxIssues + 1` issues of their own: the first issues of the text are among
 * those found, and finding more than `maxIssues` says there are more.
 */
function analyse(text: string, limits: Limits, operation: OperationName | undefined, targets: number | undefined, maxIssues = Number.POSITIVE_INFINITY): Analysis {
  if (typeof text !== 'string') {
    return done([{ code: 'unexpected_token', offset: 0, length: 0, expected: 'a filter text', message: 'The filter must be a string.' }]);
  }
  if (text.length > limits.maxLength) {
    return done([{ code: 'too_long', offset: limits.maxLength, length: text.length - limits.maxLength, expected: String(limits.maxLength) }]);
  }
  if (isBlank(text)) return done([{ code: 'empty_filter', offset: 0, length: text.length }]);

  const lexed = t.filterLexer.tokenize(text);
  const issues: IssueDraft[] = [];
  for (const error of lexed.errors) {
    issues.push(hinted({ code: 'unexpected_character', offset: error.offset, length: error.length }, text));
  }
  const maxDepth = Math.min(limits.maxDepth, MAX_PARSER_DEPTH);
  const deep = checkTokens(lexed.tokens, issues, maxDepth);
  if (deep) return done([...issues, deep]);

  // Well-formed input is parsed once, without recovery; input with a syntax error is parsed again
  // by the recovering parser, which reports every error and keeps what it could parse.
  // (`errors` is a copy Chevrotain makes on every read: read once.)
  let parser = fastParser;
  let parsed = runParser(parser, lexed.tokens);
  const wellFormed = parsed !== STACK_EXHAUSTED && parser.errors.length === 0;
  let stoppedAt: number | undefined;
  if (parsed !== STACK_EXHAUSTED && !wellFormed) {
    parser = filterParser;
    // Twice as many parse errors as issues wanted: some errors are not issues (the stumbles of an
    // earlier one), and the error the parse stops at is not kept (see below).
    parsed = runParser(parser, lexed.tokens, 2 * maxIssues + 1);
    if (parsed === PARSE_STOPPED) {
      // The error that stopped the parse is the last one it recorded: nothing past it was parsed.
      const errors = parser.errors;
      const last = errors[errors.length - 1]?.token;
      stoppedAt = last && Number.isFinite(last.startOffset) ? last.startOffset : text.length;
    }
  }
  if (parsed === STACK_EXHAUSTED) {
    return done([...issues, { code: 'too_deep', offset: 0, length: text.length, expected: String(maxDepth) }]);
  }
  const filter = parsed === PARSE_STOPPED ? undefined : parsed;
  // The recovering parser runs only after an error: the common, well-formed case skips all this.
  let syntaxOffsets: readonly number[] = [];
  if (!wellFormed) {
    const syntax = syntaxIssues(parser, lexed, issues, text);
    for (const issue of syntax) issues.push(issue);
    syntaxOffsets = syntax.map((issue) => issue.offset);
  }

  // A well-formed parse built exactly the conditions of its AST, in order: no walk needed. A parse
  // stopped at its error budget has no AST: the conditions it built before stopping are checked.
  const conditions = wellFormed || stoppedAt !== undefined ? parser.conditions : collectConditions(filter);
  if (conditions.length > limits.maxConditions) {
    const first = conditions[limits.maxConditions]!;
    issues.push({ code: 'too_many_conditions', offset: first.span.offset, length: first.span.length, expected: String(limits.maxConditions) });
  }
  if (operation !== undefined) {
    const sure = issues.length === 0 ? conditions : withoutDoubt(parser, conditions, syntaxOffsets);
    validateConditionsOf(operation, targets, sure, text, issues.length === 0 ? filter : undefined, issues, maxIssues + 1);
  }
  if (stoppedAt !== undefined) {
    // Only what lies before the place the parse stopped was checked as a whole parse checks it
    // (an error there may be one a whole parse would drop as the stumble of a later one, and past
    // it only the lexer looked): the issues kept are the first ones of the text, as a whole parse
    // lists them.
    return { issues: issues.filter((issue) => issue.offset < stoppedAt), stopped: true };
  }
  if (issues.length === 0 && filter === undefined) {
    issues.push({ code: 'unexpected_end', offset: text.length, length: 0, expected: 'a condition' });
  }
  return { issues, filter };
}

/**
 * Whether `tokens`, the whole text before a cursor, can start a valid filter as far as they go:
 * no lexical issue (a bad escape, a huge number, nesting past the limit), no syntax error before
 * the end of the tokens (one at the end only says the filter is not finished), and no field or
 * type issue in any condition they complete. One parse without recovery: linear in the tokens.
 * Completion asks it before offering anything.
 * @internal
 */
export function isViablePrefix(tokens: IToken[], operation: OperationName, targets: number | undefined): boolean {
  const issues: IssueDraft[] = [];
  if (checkTokens(tokens, issues, DEFAULT_LIMITS.maxDepth) !== undefined || issues.length > 0) return false;
  if (runParser(fastParser, tokens) === STACK_EXHAUSTED) return false;
  // Without recovery the parse stops at its first error: fine only when that is the end of the input.
  const [error] = fastParser.errors;
  if (error !== undefined && error.token.tokenType.name !== 'EOF' && Number.isFinite(error.token.startOffset)) return false;
  return validateConditionsOf(operation, targets, fastParser.conditions, '', undefined).length === 0;
}

/** Whether the text is empty or only white space (a loop: no regular expression per parse). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) return false;
  }
  return true;
}

const done = (issues: IssueDraft[]): Analysis => ({ issues });

/**
 * The parser's errors as issues. A syntax error where a lexical issue already stands
 * (`5abc = 1`), or at the first token after an unexpected character or a malformed number
 * (`é = 1`, `a = 1; b = 2`, `a = 1AND b = 2`: the parser only stumbles over what the lexer
 * already reported), says nothing new and is left out.
 */
function syntaxIssues(parser: FilterParser, lexed: ILexingResult, lexical: readonly IssueDraft[], text: string): IssueDraft[] {
  if (parser.errors.length === 0) return [];
  const quiet = afterStumbles(lexed.tokens, lexed.errors);
  for (const issue of lexical) quiet.offsets.add(issue.offset);
  const issues = parser.errors
    .map((e) => syntaxIssue(e, text))
    .filter((i) => !(i.code === 'unexpected_end' ? quiet.end : quiet.offsets.has(i.offset)))
    .sort((a, b) => a.offset - b.offset);
  return dropCascades(issues, lexed.tokens);
}

/**
 * A syntax error on the token right after another one is the parser stumbling on while it
 * re-syncs (`AND = 1`: after the unexpected `AND`, the `=` is unexpected too): it says nothing new.
 */
function dropCascades(issues: IssueDraft[], tokens: readonly IToken[]): IssueDraft[] {
  if (issues.length < 2) return issues;
  const indexAt = new Map(tokens.map((token, i) => [token.startOffset, i]));
  let previous = -2;
  return issues.filter((issue) => {
    const index = issue.code === 'unexpected_token' ? indexAt.get(issue.offset) : undefined;
    if (index === undefined) return true;
    const cascade = index === previous + 1;
    previous = index;
    return !cascade;
  });
}

/**
 * The deepest nesting the recursive-descent parser is given, whatever `limits.maxDepth` says: within
 * what Node's default stack holds (docs/filter-language.md, section "Decisions", item 5).
 * @internal
 */
export const MAX_PARSER_DEPTH = 256;

const STACK_EXHAUSTED = Symbol('stack exhausted');

/**
 * Runs the parser. The depth ceiling keeps recursion well inside Node's default stack; should a
 * caller already be deep in its own stack, a stack overflow still ends as `too_deep`, never as a
 * `RangeError` reaching the caller.
 */
function runParser(parser: FilterParser, tokens: IToken[], errorBudget = Number.POSITIVE_INFINITY): FilterNode | undefined | typeof STACK_EXHAUSTED | typeof PARSE_STOPPED {
  parser.load(tokens);
  parser.errorBudget = errorBudget;
  // Every syntax error is a Chevrotain exception object, and capturing its stack trace was most
  // of the time spent on input with many errors; nobody reads those traces (errors become issues).
  // The fast parser stops at its first error, so only the recovering one needs this.
  const quiet = parser === filterParser;
  const stackTraceLimit = quiet ? Error.stackTraceLimit : 0;
  if (quiet) Error.stackTraceLimit = 0;
  try {
    return parser.filter();
  } catch (error) {
    if (error instanceof RangeError) return STACK_EXHAUSTED;
    if (error === PARSE_STOPPED) return PARSE_STOPPED;
    throw error;
  } finally {
    if (quiet) Error.stackTraceLimit = stackTraceLimit;
    parser.errorBudget = Number.POSITIVE_INFINITY;
  }
}

/**
 * Offsets of the tokens that directly follow an unexpected character or a malformed number, and
 * whether the end of the input does. Tokens and lexer errors are both in offset order, so one
 * merge pass finds them.
 */
function afterStumbles(tokens: readonly IToken[], errors: readonly ILexingError[]): { offsets: Set<number>; end: boolean } {
  const stumbles: number[] = [];
  let e = 0;
  for (const token of tokens) {
    while (e < errors.length && errors[e]!.offset < token.startOffset) stumbles.push(errors[e++]!.offset);
    if (token.tokenType === t.BadNumber) stumbles.push(token.startOffset);
  }
  while (e < errors.length) stumbles.push(errors[e++]!.offset);
  const offsets = new Set<number>();
  let next = 0;
  for (const stumble of stumbles) {
    while (next < tokens.length && tokens[next]!.startOffset <= stumble) next++;
    if (next === tokens.length) return { offsets, end: true };
    offsets.add(tokens[next]!.startOffset);
  }
  return { offsets, end: false };
}

/**
 * Lexical checks that need the token's kind (escapes, unclosed strings, malformed and huge
 * numbers), and the nesting: checked on the token stream, before any recursion, so deep input is
 * an issue, never a stack overflow. One pass over the tokens; returns the first `(` nested deeper
 * than `maxDepth` as a `too_deep` issue.
 */
function checkTokens(tokens: readonly IToken[], issues: IssueDraft[], maxDepth: number): IssueDraft | undefined {
  const kinds = (checkKinds ??= tokenCheckKinds());
  let depth = 0;
  let deep: IssueDraft | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    // Most tokens (names, keywords, operators) need no check: one table read says so.
    const kind = kinds[token.tokenTypeIdx];
    if (!kind) continue;
    if (kind === CHECK.open) {
      depth++;
      if (depth > maxDepth && deep === undefined) deep = { code: 'too_deep', offset: token.startOffset, length: 1, expected: String(maxDepth) };
    } else if (kind === CHECK.close) {
      if (depth > 0) depth--;
    } else if (kind === CHECK.string) {
      // Closed and free of backslashes (most strings): nothing to report, no loop over the text.
      const image = token.image;
      if (image.length >= 2 && image.charCodeAt(image.length - 1) === image.charCodeAt(0) && image.indexOf('\\') === -1) continue;
      checkString(image, token.startOffset, issues);
    } else if (kind === CHECK.bad) {
      issues.push({ code: 'invalid_number', offset: token.startOffset, length: token.image.length });
    } else if (kind === CHECK.digits && tokens[i - 1]?.tokenType === t.LBracket) {
      // Digits after `[` are an index, not a number: a huge one is simply out of range.
    } else if (isNumberOutOfRange(token.image)) {
      issues.push({ code: 'number_out_of_range', offset: token.startOffset, length: token.image.length });
    }
  }
  return deep;
}

/** What {@link checkTokens} does with each kind of token. */
const CHECK = { none: 0, open: 1, close: 2, string: 3, bad: 4, digits: 5, number: 6 } as const;

let checkKinds: Uint8Array | undefined;

/** The check of each token type, by its `tokenTypeIdx` (what a token carries). */
function tokenCheckKinds(): Uint8Array {
  const pairs: [TokenType, number][] = [
    [t.LParen, CHECK.open],
    [t.RParen, CHECK.close],
    [t.SingleQuoted, CHECK.string],
    [t.DoubleQuoted, CHECK.string],
    [t.UnterminatedString, CHECK.string],
    [t.BadNumber, CHECK.bad],
    [t.Digits, CHECK.digits],
    [t.Decimal, CHECK.number],
    [t.NegativeInteger, CHECK.number],
  ];
  const size = Math.max(...t.allTokens.map((type) => type.tokenTypeIdx!)) + 1;
  const kinds = new Uint8Array(size);
  for (const [type, kind] of pairs) kinds[type.tokenTypeIdx!] = kind;
  return kinds;
}

function syntaxIssue(error: IRecognitionException, text: string): IssueDraft {
  const token = error.token;
  const atEnd = token.tokenType.name === 'EOF' || !Number.isFinite(token.startOffset);
  if (atEnd) {
    const previous = (error as IRecognitionException & { previousToken?: IToken }).previousToken;
    const end = previous && Number.isFinite(previous.startOffset) ? previous.startOffset + previous.image.length : text.length;
    return { code: 'unexpected_end', offset: Math.max(end, trimEnd(text)), length: 0, expected: error.message };
  }
  return hinted({ code: 'unexpected_token', offset: token.startOffset, length: token.image.length, expected: error.message }, text);
}

const trimEnd = (text: string) => text.replace(/[ \t\r\n]+$/, '').length;

function collectConditions(root: FilterNode | undefined): Condition[] {
  const out: Condition[] = [];
  const stack: FilterNode[] = root ? [root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'And' || node.kind === 'Or') {
      for (let i = node.operands.length - 1; i >= 0; i--) stack.push(node.operands[i]!);
    } else {
      out.push(node);
    }
  }
  return out;
}

/**
 * The conditions parsed without doubt. (A function of its own: a closure over `analyse`'s
 * variables would make every parse allocate a context for them.)
 */
function withoutDoubt(parser: FilterParser, conditions: readonly Condition[], syntaxOffsets: readonly number[]): Condition[] {
  return conditions.filter((c) => isWithoutDoubt(parser, c, syntaxOffsets));
}

/**
 * A condition parsed without doubt: built from real tokens only, and no syntax error inside it.
 * `syntaxOffsets` are sorted; a binary search keeps this linear-logarithmic over many conditions
 * and many errors (a scan of every error for every condition was quadratic).
 */
function isWithoutDoubt(parser: FilterParser, condition: Condition, syntaxOffsets: readonly number[]): boolean {
  if (parser.isDoubtful(condition)) return false;
  const start = condition.span.offset;
  const end = start + condition.span.length;
  // Exclusive end: an error right after a complete condition (`(a = 1` missing its `)`) is not inside it.
  const first = firstAtOrAfter(syntaxOffsets, start);
  return !(first < syntaxOffsets.length && syntaxOffsets[first]! < end);
}

/** The index of the first of the sorted `values` that is at least `value` (`values.length` if none). */
function firstAtOrAfter(values: readonly number[], value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
