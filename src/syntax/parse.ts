/**
 * The only door into the front end: text in, an AST or every issue found out.
 *
 * @module
 */
import type { ILexingError, ILexingResult, IRecognitionException, IToken } from 'chevrotain';
import type { Condition, FilterNode } from '../ast/nodes.js';
import { FilterError } from '../errors/filter-error.js';
import { finishIssues } from '../errors/format.js';
import type { FilterIssue, IssueDraft } from '../errors/issue.js';
import { resolveLimits, type Limits } from '../validate/limits.js';
import { checkTargetOptions, validateConditions, type TargetOptions } from '../validate/validate.js';
import { checkString, isNumberOutOfRange } from './literals.js';
import { fastParser, filterParser, type FilterParser } from './parser.js';
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
}

/** The result of {@link safeParseFilter}. */
export type ParseResult =
  | { readonly ok: true; readonly filter: FilterNode }
  | { readonly ok: false; readonly issues: readonly FilterIssue[] };

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
  if (opts.operation !== undefined) checkTargetOptions(opts.operation, opts.targets);
  const analysis = analyse(text, limits, opts);
  if (analysis.issues.length > 0) return { ok: false, issues: finishIssues(analysis.issues, textOf(text)) };
  return { ok: true, filter: analysis.filter! };
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
}

function analyse(text: string, limits: Limits, options: ParseOptions): Analysis {
  if (typeof text !== 'string') {
    return done([{ code: 'unexpected_token', offset: 0, length: 0, expected: 'a filter text', message: 'The filter must be a string.' }]);
  }
  if (text.length > limits.maxLength) {
    return done([{ code: 'too_long', offset: limits.maxLength, length: text.length - limits.maxLength, expected: String(limits.maxLength) }]);
  }
  if (/^[ \t\r\n]*$/.test(text)) return done([{ code: 'empty_filter', offset: 0, length: text.length }]);

  const lexed = t.filterLexer.tokenize(text);
  const issues: IssueDraft[] = [];
  for (const error of lexed.errors) {
    issues.push({ code: 'unexpected_character', offset: error.offset, length: error.length });
  }
  checkTokens(lexed.tokens, issues);
  const deep = tooDeep(lexed.tokens, Math.min(limits.maxDepth, MAX_PARSER_DEPTH));
  if (deep) return done([...issues, deep]);

  // Well-formed input is parsed once, without recovery; input with a syntax error is parsed again
  // by the recovering parser, which reports every error and keeps what it could parse.
  let parser = fastParser;
  let filter = runParser(parser, lexed.tokens);
  if (filter !== STACK_EXHAUSTED && parser.errors.length > 0) {
    parser = filterParser;
    filter = runParser(parser, lexed.tokens);
  }
  if (filter === STACK_EXHAUSTED) {
    return done([...issues, { code: 'too_deep', offset: 0, length: text.length, expected: String(Math.min(limits.maxDepth, MAX_PARSER_DEPTH)) }]);
  }
  const syntax = syntaxIssues(parser, lexed, issues, text);
  for (const issue of syntax) issues.push(issue);
  const syntaxOffsets = syntax.map((issue) => issue.offset);

  const conditions = collectConditions(filter);
  if (conditions.length > limits.maxConditions) {
    const first = conditions[limits.maxConditions]!;
    issues.push({ code: 'too_many_conditions', offset: first.span.offset, length: first.span.length, expected: String(limits.maxConditions) });
  }
  if (options.operation !== undefined) {
    const sure = issues.length === 0 ? conditions : conditions.filter((c) => isWithoutDoubt(parser, c, syntaxOffsets));
    const typed = validateConditions(sure, { operation: options.operation, targets: options.targets }, text, issues.length === 0 ? filter : undefined);
    // A loop, not `push(...typed)`: spreading hundreds of thousands of arguments overflows the stack.
    for (const issue of typed) issues.push(issue);
  }
  if (issues.length === 0 && filter === undefined) {
    issues.push({ code: 'unexpected_end', offset: text.length, length: 0, expected: 'a condition' });
  }
  return { issues, filter };
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
 * The deepest nesting the recursive-descent parser is given, whatever `limits.maxDepth` says:
 * each level costs about 25 stack frames, and Node's default stack ends near 450 levels.
 * @internal
 */
export const MAX_PARSER_DEPTH = 256;

const STACK_EXHAUSTED = Symbol('stack exhausted');

/**
 * Runs the parser. The depth ceiling keeps recursion well inside Node's default stack; should a
 * caller already be deep in its own stack, a stack overflow still ends as `too_deep`, never as a
 * `RangeError` reaching the caller.
 */
function runParser(parser: FilterParser, tokens: IToken[]): FilterNode | undefined | typeof STACK_EXHAUSTED {
  parser.load(tokens);
  // Every syntax error is a Chevrotain exception object, and capturing its stack trace was most
  // of the time spent on input with many errors; nobody reads those traces (errors become issues).
  const stackTraceLimit = Error.stackTraceLimit;
  if (parser === filterParser) Error.stackTraceLimit = 0;
  try {
    return parser.filter();
  } catch (error) {
    if (error instanceof RangeError) return STACK_EXHAUSTED;
    throw error;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
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

/** Lexical checks that need the token's kind: escapes, unclosed strings, malformed and huge numbers. */
function checkTokens(tokens: readonly IToken[], issues: IssueDraft[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const type = token.tokenType;
    // Digits after `[` are an index, not a number: a huge one is simply out of range.
    if (type === t.Digits && tokens[i - 1]?.tokenType === t.LBracket) continue;
    if (type === t.SingleQuoted || type === t.DoubleQuoted || type === t.UnterminatedString) {
      checkString(token.image, token.startOffset, issues);
    } else if (type === t.BadNumber) {
      issues.push({ code: 'invalid_number', offset: token.startOffset, length: token.image.length });
    } else if ((type === t.Digits || type === t.Decimal || type === t.NegativeInteger) && isNumberOutOfRange(token.image)) {
      issues.push({ code: 'number_out_of_range', offset: token.startOffset, length: token.image.length });
    }
  }
}

/** Nesting is checked on the token stream, before any recursion: deep input is an issue, never a stack overflow. */
function tooDeep(tokens: readonly IToken[], maxDepth: number): IssueDraft | undefined {
  let depth = 0;
  for (const token of tokens) {
    if (token.tokenType === t.LParen) {
      depth++;
      if (depth > maxDepth) return { code: 'too_deep', offset: token.startOffset, length: 1, expected: String(maxDepth) };
    } else if (token.tokenType === t.RParen && depth > 0) {
      depth--;
    }
  }
  return undefined;
}

function syntaxIssue(error: IRecognitionException, text: string): IssueDraft {
  const token = error.token;
  const atEnd = token.tokenType.name === 'EOF' || !Number.isFinite(token.startOffset);
  if (atEnd) {
    const previous = (error as IRecognitionException & { previousToken?: IToken }).previousToken;
    const end = previous && Number.isFinite(previous.startOffset) ? previous.startOffset + previous.image.length : text.length;
    return { code: 'unexpected_end', offset: Math.max(end, trimEnd(text)), length: 0, expected: error.message };
  }
  return { code: 'unexpected_token', offset: token.startOffset, length: token.image.length, expected: error.message };
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
 * A condition parsed without doubt: built from real tokens only, and no syntax error inside it.
 * `syntaxOffsets` are sorted; a binary search keeps this linear-logarithmic over many conditions
 * and many errors (a scan of every error for every condition was quadratic).
 */
function isWithoutDoubt(parser: FilterParser, condition: Condition, syntaxOffsets: readonly number[]): boolean {
  if (parser.doubtful.has(condition)) return false;
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
