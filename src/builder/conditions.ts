/**
 * Run-time side of the builder: turns `where`/`like` arguments into frozen AST conditions and
 * rejects the ones the validator rejects. Field and type rules are never restated here: each new
 * condition goes through {@link validateFilter}, so the builder and the parser give the same
 * issue codes. Only what an AST cannot even hold (a `NaN`, an operator that does not exist, a
 * value that is no literal) is checked here.
 *
 * @module
 * @internal
 */
import * as ast from '../ast/factories.js';
import type { ComparisonOperator, Condition, Literal } from '../ast/nodes.js';
import { OPERATOR_SPELLINGS } from '../ast/nodes.js';
import { FilterError, ParameterError } from '../errors/filter-error.js';
import { finishIssues } from '../errors/format.js';
import type { IssueCode } from '../errors/issue.js';
import { printFilter } from '../print/printer.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { safeParseFilter } from '../syntax/parse.js';
import { validateFilter } from '../validate/validate.js';
import type { BuilderOperator } from './field-types.js';

/** What every condition of one builder is checked against. @internal */
export interface BuilderContext {
  readonly operation: string;
  readonly targets: number | undefined;
}

/** `name` or `name[digits]`; anything else stays one name, which validation then reports as unknown. */
const INDEXED = /^([A-Za-z_][A-Za-z0-9_]*)\[([0-9]+)\]$/;

/** The AST field for a builder field name such as `'domain_score'` or `'backlinks_counts[2]'`. @internal */
export function fieldOf(name: unknown): ReturnType<typeof ast.field> {
  if (typeof name !== 'string') throw new ParameterError('field', 'invalid_value', 'The field name must be a string.');
  const match = INDEXED.exec(name);
  return match ? ast.field(match[1]!, Number(match[2]!)) : ast.field(name);
}

/** The literal node for a value, or a thrown issue/parameter error when no literal can hold it. @internal */
export function literalOf(value: unknown): Literal {
  if (typeof value === 'string') return ast.stringLiteral(value);
  if (typeof value === 'boolean') return ast.booleanLiteral(value);
  if (typeof value === 'number') {
    // The language has no NaN or infinity, and no number past 2^53 - 1: the same codes as the text.
    if (Number.isNaN(value)) throw issueError('invalid_number', 'NaN is not a number a filter can hold.');
    if (Math.abs(value) > Number.MAX_SAFE_INTEGER) {
      throw issueError('number_out_of_range', `The number ${value} is too large: its magnitude must be at most 2^53 - 1.`);
    }
    return ast.numberLiteral(value);
  }
  throw new ParameterError('value', 'invalid_value', `A filter value must be a string, a number or a boolean, not ${describe(value)}.`);
}

/** Comparison operators of other languages, and the filter language's spelling of each. */
const OTHER_LANGUAGES: Readonly<Record<string, BuilderOperator>> = { '==': '=', '===': '=', '!==': '!=' };

/** Builds one condition from `where` arguments and checks it for the builder's operation. @internal */
export function buildCondition(context: BuilderContext, name: unknown, operator: unknown, value: unknown): Condition {
  if (operator === 'LIKE' || operator === 'NOT LIKE') {
    return buildLike(context, name, value, operator === 'NOT LIKE');
  }
  const canonical = typeof operator === 'string' && Object.hasOwn(OPERATOR_SPELLINGS, operator) ? OPERATOR_SPELLINGS[operator] : undefined;
  if (canonical === undefined) {
    const known: readonly BuilderOperator[] = ['=', '!=', '<>', '<', '<=', '>', '>=', 'LIKE', 'NOT LIKE'];
    const meant = typeof operator === 'string' ? OTHER_LANGUAGES[operator] : undefined;
    const list = meant === undefined ? `; use one of ${known.join(' ')}.` : `${didYouMean(meant)} The operators: ${known.join(' ')}.`;
    throw new ParameterError('operator', 'invalid_value', `Unknown operator ${describe(operator)}${list}`);
  }
  return checked(ast.comparison(fieldOf(name), canonical, literalOf(value)), context);
}

/** Builds one LIKE or NOT LIKE condition and checks it for the builder's operation. @internal */
export function buildLike(context: BuilderContext, name: unknown, pattern: unknown, negated: boolean): Condition {
  if (typeof pattern !== 'string') {
    throw new ParameterError('pattern', 'invalid_value', `A LIKE pattern must be a string, not ${describe(pattern)}.`);
  }
  return checked(ast.like(fieldOf(name), ast.stringLiteral(pattern), negated), context);
}

/**
 * Returns the condition when it is valid for the operation; otherwise throws {@link FilterError}
 * with the validator's issues, placed in the condition's canonical text when the parser agrees.
 */
function checked(condition: Condition, context: BuilderContext): Condition {
  const issues = validateFilter(condition, context);
  if (issues.length === 0) return condition;
  const text = printFilter(condition);
  // Parsing the printed condition places each issue under the right part of the text; a field
  // name that is not a word would parse differently, so the validator's issues are kept then.
  const located = safeParseFilter(text, context);
  const sameCodes = !located.ok && located.issues.map((i) => i.code).join() === issues.map((i) => i.code).join();
  throw new FilterError(sameCodes && !located.ok ? located.issues : issues, text);
}

/** A FilterError with one issue about a value that has no text to point into. @internal */
export function issueError(code: IssueCode, message: string, expected?: string): FilterError {
  const draft = { code, offset: 0, length: 0, message, ...(expected === undefined ? {} : { expected }) };
  return new FilterError(finishIssues([draft], ''), '');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value;
}
