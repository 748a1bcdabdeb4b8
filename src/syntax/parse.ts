/**
 * The only door into the front end: text in, an AST or every issue found out.
 *
 * @module
 */
import type { IRecognitionException, IToken } from 'chevrotain';
import type { Condition, FilterNode } from '../ast/nodes.js';
import { FilterError } from '../errors/filter-error.js';
import { finishIssues } from '../errors/format.js';
import type { FilterIssue, IssueDraft } from '../errors/issue.js';
import { resolveLimits, type Limits } from '../validate/limits.js';
import { checkTargetOptions, validateConditions, type TargetOptions } from '../validate/validate.js';
import { checkString, isNumberOutOfRange } from './literals.js';
import { filterParser } from './parser.js';
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
  const limits = resolveLimits(options.limits);
  if (options.operation !== undefined) checkTargetOptions(options.operation, options.targets);
  const analysis = analyse(text, limits, options);
  if (analysis.issues.length > 0) return { ok: false, issues: finishIssues(analysis.issues, text) };
  return { ok: true, filter: analysis.filter! };
}

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
  if (!result.ok) throw new FilterError(result.issues, text);
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
  for (const token of lexed.groups['unexpected'] ?? []) {
    issues.push({ code: 'unexpected_character', offset: token.startOffset, length: token.image.length });
  }
  checkTokens(lexed.tokens, issues);
  const deep = tooDeep(lexed.tokens, limits.maxDepth);
  if (deep) return done([...issues, deep]);

  filterParser.load(lexed.tokens);
  const filter = filterParser.filter();
  // A syntax error where a lexical issue already stands (`5abc = 1`) says nothing new.
  const lexical = new Set(issues.map((i) => i.offset));
  const syntax = filterParser.errors.map((e) => syntaxIssue(e, text)).filter((i) => !lexical.has(i.offset));
  issues.push(...syntax);

  const conditions = collectConditions(filter);
  if (conditions.length > limits.maxConditions) {
    const first = conditions[limits.maxConditions]!;
    issues.push({ code: 'too_many_conditions', offset: first.span.offset, length: first.span.length, expected: String(limits.maxConditions) });
  }
  if (options.operation !== undefined) {
    const sure = issues.length === 0 ? conditions : conditions.filter((c) => isWithoutDoubt(c, syntax));
    issues.push(...validateConditions(sure, { operation: options.operation, targets: options.targets }, text, issues.length === 0 ? filter : undefined));
  }
  if (issues.length === 0 && filter === undefined) {
    issues.push({ code: 'unexpected_end', offset: text.length, length: 0, expected: 'a condition' });
  }
  return { issues, filter };
}

const done = (issues: IssueDraft[]): Analysis => ({ issues });

/** Lexical checks that need the token's kind: escapes, unclosed strings, malformed and huge numbers. */
function checkTokens(tokens: readonly IToken[], issues: IssueDraft[]): void {
  for (const token of tokens) {
    const type = token.tokenType;
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

/** A condition parsed without doubt: built from real tokens only, and no syntax error inside it. */
function isWithoutDoubt(condition: Condition, syntax: readonly IssueDraft[]): boolean {
  if (filterParser.doubtful.has(condition)) return false;
  const start = condition.span.offset;
  const end = start + condition.span.length;
  return !syntax.some((issue) => issue.offset >= start && issue.offset <= end);
}
