/**
 * Completion of filter text: what may come at the cursor, for one operation.
 *
 * The syntax comes from Chevrotain's content assist on the one grammar (`nextTokenTypes` of the
 * parser); the meaning from the catalogue (the operation's fields, their types and docs) and from
 * the validator itself: which operators and literals a field takes is asked of `validateFilter`,
 * never written down a second time here.
 *
 * @module
 */
import type { IToken, TokenType } from 'chevrotain';
import * as ast from '../ast/factories.js';
import { COMPARISON_OPERATORS, OPERATOR_SPELLINGS, type ComparisonOperator, type Literal } from '../ast/nodes.js';
import { filterFieldsOf, type FilterField } from '../catalogue/filter-fields.js';
import { MAX_MATRIX_TARGETS, operations, type OperationName } from '../catalogue/operations.js';
import type { FieldType, RecordSpec } from '../catalogue/records.js';
import { ParameterError } from '../errors/filter-error.js';
import { isViablePrefix } from '../syntax/parse.js';
import { filterParser } from '../syntax/parser.js';
import * as t from '../syntax/tokens.js';
import { DEFAULT_LIMITS } from '../validate/limits.js';
import { checkTargetOptions, validateFilter } from '../validate/validate.js';
import type { Completion, CompletionKind, CompletionOptions } from './types.js';

/**
 * What may come at `offset` in `text`, a filter being written for `options.operation`: the fields
 * of the operation (with type and meaning), the operators the field's type allows, `AND`, `OR`,
 * `NOT LIKE`, literal templates that fit the field, parentheses, and `backlinks_counts[n]` with every
 * allowed n. Each suggestion carries the range of the text it replaces (the word being typed) and
 * the text to insert there, with a leading space where one is needed.
 *
 * Only the text before the cursor decides what is offered; a suggestion replaces the rest of the
 * word the cursor is in. The list is empty where nothing can be offered: the text before the cursor
 * is not the start of any valid filter (a syntax error, an unknown field, a character the language
 * does not have), the cursor is inside a string or a number, or the operation takes no filter.
 * Throws `ParameterError` for an unknown operation, a bad target count, or an offset outside the text.
 *
 * @example
 * ```ts
 * complete('domain_score > 5 AN', 19, { operation: 'links' });
 * // [{ label: 'AND', insert: 'AND', kind: 'keyword', from: 17, to: 19, ... }]
 * complete('is_nofollow ', 12, { operation: 'links' }).map((c) => c.insert);
 * // ['=', '!=']
 * ```
 */
export function complete(text: string, offset: number, options: CompletionOptions): Completion[] {
  const operation = checkTargetOptions(options.operation, options.targets);
  if (typeof text !== 'string') throw new ParameterError('text', 'invalid_type', 'The text to complete must be a string.');
  if (!(Number.isInteger(offset) && offset >= 0 && offset <= text.length)) {
    const rule = !Number.isInteger(offset) ? 'not_an_integer' : offset < 0 ? 'too_small' : 'too_large';
    throw new ParameterError('offset', rule, `The offset must be an integer from 0 to the text's length (${text.length}).`);
  }
  if (!operations[operation].filter || offset > DEFAULT_LIMITS.maxLength) return [];
  const context: Context = { text, operation, targets: options.targets, fields: filterFieldsOf(operation, options.targets) };

  const prefix = text.slice(0, offset);
  const { tokens, errors } = t.filterLexer.tokenize(prefix);
  // One stray character is allowed: a `!` the cursor follows, the start of `!=`.
  const bang = errors.length === 1 && errors[0]!.offset === offset - 1 && prefix.endsWith('!');
  if (errors.length > 0 && !bang) return [];
  if (bang) return after(context, tokens, offset - 1, offset + (text[offset] === '=' ? 1 : 0), '!');

  const last = tokens[tokens.length - 1];
  const touching = last !== undefined && last.startOffset + last.image.length === offset;
  if (!touching) return after(context, tokens, offset, offset, undefined);
  const type = last.tokenType;
  if (type === t.UnterminatedString || type === t.BadNumber) return [];
  // Inside a number (`1|2`, `5|.5`, `5|abc`): nothing to offer.
  if (type.CATEGORIES?.includes(t.NumberLit) && /^[0-9.A-Za-z_]/.test(text.slice(offset))) return [];
  const before = tokens.slice(0, -1);
  if (isWordLike(type)) {
    // The word being typed: offer what it can become, and (when it is whole already and the cursor
    // at its end) what follows it.
    const to = offset + (/^[A-Za-z0-9_]*/.exec(text.slice(offset))?.[0].length ?? 0);
    const partial = after(context, before, last.startOffset, to, last.image);
    const word = last.image;
    const whole = type !== t.Word || partial.some((c) => c.insert.trim() === word) || context.fields.some((f) => f.name === word);
    return whole && to === offset ? [...partial, ...after(context, tokens, offset, offset, undefined)] : partial;
  }
  if (type.CATEGORIES?.includes(t.CompareOp)) {
    // `<` may still become `<=`; `<=` is whole: then what follows it is offered too. An operator
    // the cursor is inside (`<|=`) is replaced whole.
    const to = offset + (/^[=<>!]*/.exec(text.slice(offset))?.[0].length ?? 0);
    const operators = after(context, before, last.startOffset, to, last.image);
    return to === offset ? [...operators, ...after(context, tokens, offset, offset, undefined)] : operators;
  }
  return after(context, tokens, offset, offset, undefined);
}

/** What every step of one completion shares. */
interface Context {
  readonly text: string;
  readonly operation: OperationName;
  readonly targets: number | undefined;
  readonly fields: readonly FilterField[];
}

const isWordLike = (type: TokenType): boolean =>
  type === t.Word || type === t.And || type === t.Or || type === t.Not || type === t.Like || type === t.True || type === t.False;

/**
 * The suggestions for what comes after `tokens`, replacing `from`..`to`; `partial` is the text
 * being replaced (a word or operator begun), which every suggestion must start with.
 */
function after(context: Context, tokens: IToken[], from: number, to: number, partial: string | undefined): Completion[] {
  if (!isViablePrefix(tokens, context.operation, context.targets)) return [];
  const next = new Set(filterParser.nextTokenTypes(lastSegment(tokens)));
  if (next.size === 0) return [];
  const condition = currentCondition(tokens);
  const out: Completion[] = [];
  const add = (kind: CompletionKind, label: string, insert: string, extra: Partial<Completion> = {}): void => {
    if (partial !== undefined && !insert.toLowerCase().startsWith(partial.toLowerCase())) return;
    const spaced = needsSpace(context.text, from, kind, insert) ? ` ${insert}` : insert;
    const cursor = extra.cursor === undefined ? undefined : extra.cursor + spaced.length - insert.length;
    out.push({ label, insert: spaced, kind, ...extra, ...(cursor !== undefined && { cursor }), from, to });
  };

  if (next.has(t.Word)) {
    for (const field of context.fields) add('field', field.label, field.label, { detail: field.type, description: field.doc });
  }
  if (next.has(t.LParen) && openParens(tokens) < DEFAULT_LIMITS.maxDepth) add('punctuation', '(', '(', { description: 'Start a group' });
  const rule = condition && ruleOf(context, condition.name, condition.index);
  if (condition && rule) {
    if (next.has(t.LBracket) && rule.type === 'integer[]') {
      for (let n = 1; n <= (context.targets ?? MAX_MATRIX_TARGETS); n++) {
        add('punctuation', `[${n}]`, `[${n}]`, { detail: 'integer', description: `The count for target ${n}` });
      }
    }
    if (next.has(t.Digits) && rule.type === 'integer[]') {
      for (let n = 1; n <= (context.targets ?? MAX_MATRIX_TARGETS); n++) add('literal', String(n), String(n), { detail: 'index', description: `Target ${n}` });
    }
    const index = tokens[tokens.length - 1]!;
    if (next.has(t.RBracket) && rule.type === 'integer[]' && Number(index.image) >= 1 && Number(index.image) <= (context.targets ?? MAX_MATRIX_TARGETS)) add('punctuation', ']', ']');
    if (next.has(t.CompareOp) && rule.indexed) {
      for (const operator of rule.operators) add('operator', operator, operator, { detail: rule.type, description: OPERATOR_DOCS[operator] });
      // `<` begun may be `<>`, the other spelling of `!=`.
      if (partial === '<' && rule.operators.includes('!=')) add('operator', '<>', '<>', { detail: rule.type, description: OPERATOR_DOCS['!='] });
    }
    if (rule.like && rule.indexed) {
      if (next.has(t.Not)) add('operator', 'NOT LIKE', 'NOT LIKE', { detail: rule.type, description: OPERATOR_DOCS['NOT LIKE'] });
      if (next.has(t.Like)) add('operator', 'LIKE', 'LIKE', { detail: rule.type, description: OPERATOR_DOCS.LIKE });
    }
    if (condition.operatorAllowed(rule)) {
      for (const literal of literalsFor(rule, condition.afterLike, next)) add('literal', literal.label, literal.insert, literal.extra);
    }
  }
  if (next.has(t.RParen)) add('punctuation', ')', ')', { description: 'Close the group' });
  if (conditionsIn(tokens) < DEFAULT_LIMITS.maxConditions) {
    if (next.has(t.And)) add('keyword', 'AND', 'AND', { description: 'Both sides must hold (binds tighter than OR)' });
    if (next.has(t.Or)) add('keyword', 'OR', 'OR', { description: 'Either side may hold' });
  }
  return out;
}

const OPERATOR_DOCS: Readonly<Record<ComparisonOperator | 'LIKE' | 'NOT LIKE', string>> = {
  '=': 'Equal to',
  '!=': 'Not equal to (also written <>)',
  '<': 'Less than',
  '<=': 'Less than or equal to',
  '>': 'Greater than',
  '>=': 'Greater than or equal to',
  LIKE: "Matches a pattern: % is any run of characters, case-sensitive, e.g. '%seo%'",
  'NOT LIKE': 'Does not match the pattern',
};

/**
 * Whether the suggestion needs a space before it: keywords, operators and values are set apart
 * from what precedes them (as the canonical text does), except right after `(` or `[`, or white
 * space; brackets, `)` and an index never are.
 */
function needsSpace(text: string, from: number, kind: CompletionKind, insert: string): boolean {
  if (from === 0) return false;
  const before = text[from - 1]!;
  if (/[ \t\r\n([]/.test(before)) return false;
  if (kind === 'punctuation') return insert === '(';
  return !(kind === 'literal' && before === '[');
}

/**
 * A shorter prefix that the grammar continues the same way: the `(` still open, then the tokens
 * after the last AND or OR inside the innermost of them. Content assist walks the grammar over
 * every token it is given (what that costs in a long filter: docs/completion.md, section "How it
 * works"); what came before that point cannot change what may follow.
 */
function lastSegment(tokens: IToken[]): IToken[] {
  // One frame per open group (the whole filter first): where its `(` is, and its last AND or OR.
  const frames: { paren: number; separator: number }[] = [{ paren: -1, separator: -1 }];
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i]!.tokenType;
    if (type === t.LParen) frames.push({ paren: i, separator: -1 });
    else if (type === t.RParen && frames.length > 1) frames.pop();
    else if (type === t.And || type === t.Or) frames[frames.length - 1]!.separator = i;
  }
  const top = frames[frames.length - 1]!;
  const start = Math.max(top.paren, top.separator) + 1;
  if (start === 0) return tokens;
  return [...frames.slice(1).map((frame) => tokens[frame.paren]!), ...tokens.slice(start)];
}

/** The number of `(` not yet closed in `tokens`. */
function openParens(tokens: readonly IToken[]): number {
  let depth = 0;
  for (const token of tokens) depth += token.tokenType === t.LParen ? 1 : token.tokenType === t.RParen ? -1 : 0;
  return depth;
}

/** The number of conditions in `tokens`: one per comparison operator or LIKE. */
function conditionsIn(tokens: readonly IToken[]): number {
  let count = 0;
  for (const token of tokens) if (token.tokenType === t.Like || token.tokenType.CATEGORIES?.includes(t.CompareOp)) count++;
  return count;
}

/** The field of the condition the prefix ends in (none at the start of a condition), and whether LIKE was written. */
function currentCondition(
  tokens: readonly IToken[],
): { name: string; index: number | null; afterLike: boolean; operatorAllowed: (rule: FieldRule) => boolean } | undefined {
  let start = tokens.length;
  while (start > 0) {
    const type = tokens[start - 1]!.tokenType;
    if (type === t.And || type === t.Or || type === t.LParen) break;
    start--;
  }
  const first = tokens[start];
  if (first === undefined || first.tokenType !== t.Word) return undefined;
  const bracket = tokens[start + 1]?.tokenType === t.LBracket ? tokens[start + 2] : undefined;
  const index = bracket?.tokenType === t.Digits && tokens[start + 3]?.tokenType === t.RBracket ? Number(bracket.image) : null;
  const last = tokens[tokens.length - 1]!;
  const afterLike = last.tokenType === t.Like;
  // The operator written last (when the value comes next) must be one the field allows.
  const spelled = OPERATOR_SPELLINGS[last.image];
  const operatorAllowed = (rule: FieldRule): boolean => (afterLike ? rule.like : spelled === undefined || rule.operators.includes(spelled));
  return { name: first.image, index, afterLike, operatorAllowed };
}

/** What a condition on one field may be, as the validator says. */
interface FieldRule {
  readonly type: FieldType;
  /** Whether the field is complete as written (an array field needs its index first). */
  readonly indexed: boolean;
  readonly operators: readonly ComparisonOperator[];
  readonly like: boolean;
  readonly literals: readonly Literal['kind'][];
}

const RULES = new Map<string, FieldRule>();

/**
 * The rule of a field of the operation, asked of the validator once per operation, field and
 * index: every operator with a literal of each kind, kept when the validator raises no issue of
 * operator or literal type. `undefined` for a name the operation does not have.
 */
function ruleOf(context: Context, name: string, index: number | null): FieldRule | undefined {
  const record: RecordSpec = operations[context.operation].record;
  const spec = Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
  if (spec === undefined || (index !== null && spec.type !== 'integer[]')) return undefined;
  const inRange = index === null || (index >= 1 && index <= (context.targets ?? MAX_MATRIX_TARGETS));
  if (!inRange) return undefined;
  const key = `${context.operation}\u0000${context.targets ?? ''}\u0000${name}\u0000${index ?? ''}`;
  let rule = RULES.get(key);
  if (rule === undefined) {
    // An array field is asked with index 1 (always allowed); the index written is checked apart.
    const indexed = spec.type !== 'integer[]' || index !== null;
    const probe = ast.field(name, spec.type === 'integer[]' ? 1 : null);
    const options = { operation: context.operation, ...(context.targets !== undefined && { targets: context.targets }) };
    const fine = (node: Parameters<typeof validateFilter>[0]) =>
      !validateFilter(node, options).some((issue) => issue.code === 'operator_not_allowed' || issue.code === 'literal_type_mismatch' || issue.code === 'index_required');
    const samples: Literal[] = [ast.stringLiteral(''), ast.numberLiteral(0), ast.booleanLiteral(true)];
    const literals = samples.filter((literal) => fine(ast.comparison(probe, '=', literal))).map((l) => l.kind);
    const operators = COMPARISON_OPERATORS.filter((operator) => samples.some((literal) => fine(ast.comparison(probe, operator, literal))));
    const like = fine(ast.like(probe, ast.stringLiteral('')));
    rule = Object.freeze({ type: spec.type, indexed, operators, like, literals });
    RULES.set(key, rule);
  }
  return rule;
}

/** The literal suggestions for the field's value: templates of the kinds the validator accepts. */
function literalsFor(
  rule: FieldRule,
  afterLike: boolean,
  next: ReadonlySet<TokenType>,
): { label: string; insert: string; extra: Partial<Completion> }[] {
  const out: { label: string; insert: string; extra: Partial<Completion> }[] = [];
  if (next.has(t.StringLit) && afterLike) {
    out.push({ label: "'%…%'", insert: "'%%'", extra: { detail: 'pattern', description: 'Contains: type the text between the % signs', cursor: 2 } });
    out.push({ label: "'…%'", insert: "'%'", extra: { detail: 'pattern', description: 'Starts with: type the text before the %', cursor: 1 } });
    return out;
  }
  if (next.has(t.StringLit) && rule.literals.includes('String')) {
    if (rule.type === 'timestamp') {
      const today = new Date().toISOString().slice(0, 10);
      out.push({ label: `'${today}'`, insert: `'${today}'`, extra: { detail: 'timestamp', description: "A date, YYYY-MM-DD: any prefix of YYYY-MM-DDTHH:MM:SS that ends at a part (e.g. '2024-05')" } });
      out.push({ label: `'${today}T00:00:00'`, insert: `'${today}T00:00:00'`, extra: { detail: 'timestamp', description: 'A date and time, YYYY-MM-DDTHH:MM:SS (UTC)' } });
    } else {
      out.push({ label: "'…'", insert: "''", extra: { detail: 'string', description: "A string in quotes: ' or \", \\ escapes the quote", cursor: 1 } });
    }
  }
  if (next.has(t.NumberLit) && rule.literals.includes('Number')) {
    out.push({ label: '0', insert: '0', extra: { detail: 'number', description: 'A number: digits, with - and a decimal part if needed, no exponent' } });
  }
  if (rule.literals.includes('Boolean')) {
    if (next.has(t.True)) out.push({ label: 'true', insert: 'true', extra: { detail: 'boolean' } });
    if (next.has(t.False)) out.push({ label: 'false', insert: 'false', extra: { detail: 'boolean' } });
  }
  return out;
}
