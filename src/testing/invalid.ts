/**
 * fast-check arbitraries of invalid filter texts, each labelled with the issue code it must
 * raise: one fault put into, or beside, an otherwise valid filter of the operation.
 *
 * @module
 */
import type { Arbitrary } from 'fast-check';
import { fc } from './optional-peer.js';
import { operations, type OperationName } from '../catalogue/operations.js';
import type { IssueCode } from '../errors/issue.js';
import { printFilter, printNumber, printString } from '../print/printer.js';
import { checkTargetOptions } from '../validate/validate.js';
import { DEFAULT_LIMITS, type Limits } from '../validate/limits.js';
import { isTimestampLiteral } from '../validate/timestamp.js';
import { filterAstArbitrary, filterTextArbitrary } from './filters.js';

/** An invalid filter text and the code of an issue it must raise (it may raise others too). */
export interface InvalidFilterCase {
  readonly text: string;
  readonly code: IssueCode;
}

/** Options of {@link invalidFilterArbitrary}. */
export interface InvalidFilterOptions {
  /** Matrix: the number of targets the text is checked with (default: unknown, so 1-6). */
  readonly targets?: number;
  /** Only these codes (default: every code the operation can raise). */
  readonly codes?: readonly IssueCode[];
  /** The limits the text is checked with (default: the language's); an infinite limit is never broken. */
  readonly limits?: Partial<Limits>;
}

/** The operation's fields by type, a valid context text, and the limits. @internal */
interface Context {
  readonly fields: ReadonlyMap<string, readonly string[]>;
  readonly names: readonly string[];
  readonly valid: Arbitrary<string>;
  readonly targets: number | undefined;
  readonly limits: Limits;
}

type Generator = (ctx: Context) => Arbitrary<string> | undefined;

const KEYWORDS = new Set(['and', 'or', 'not', 'like', 'true', 'false']);
const ORDER = ['=', '!=', '<>', '<', '<=', '>', '>='] as const;
const ofType = (ctx: Context, ...types: string[]) => types.flatMap((t) => ctx.fields.get(t) ?? []);
const from = (names: readonly string[]) => (names.length === 0 ? undefined : fc.constantFrom(...names));
const plainString = fc.string({ unit: fc.constantFrom('a', 'b', 'Z', ' ', '%', '_', 'é', '中', '-'), maxLength: 6 });

/** Puts a faulty condition before, after or between valid conditions. */
const beside = (ctx: Context, faulty: Arbitrary<string>) =>
  fc.tuple(ctx.valid, faulty, fc.constantFrom('alone', 'after', 'before', 'between')).map(([valid, bad, where]) => {
    if (where === 'alone') return bad;
    if (where === 'after') return `${valid} AND ${bad}`;
    if (where === 'before') return `${bad} OR ${valid}`;
    return `(${valid}) AND ${bad} AND (${valid})`;
  });
/** Puts a fault at the very end of the text (an unclosed string runs to the end). */
const atEnd = (ctx: Context, faulty: Arbitrary<string>) =>
  fc.tuple(fc.option(ctx.valid), faulty).map(([valid, bad]) => (valid === null ? bad : `${valid} OR ${bad}`));

const otherKind = (type: 'text' | 'number' | 'boolean') =>
  fc.constantFrom(...{ text: ['5', '-1.5', 'true', 'FALSE'], number: ["'5'", '"x"', 'true', 'false'], boolean: ["'true'", '1', '0', '"false"'] }[type]);

const GENERATORS: Readonly<Partial<Record<IssueCode, Generator>>> = {
  unknown_field: (ctx) => {
    const typo = fc.tuple(fc.constantFrom(...ctx.names), fc.constantFrom('drop', 'case', 'plural', 'prefix')).map(([name, how]) =>
      how === 'drop' ? name.slice(0, -1) : how === 'case' ? name[0]!.toUpperCase() + name.slice(1) : how === 'plural' ? `${name}s` : `_${name}`,
    );
    const name = fc.oneof(typo, fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/)).filter((n) => n !== '' && !ctx.names.includes(n) && !KEYWORDS.has(n.toLowerCase()));
    return beside(ctx, fc.tuple(name, fc.constantFrom(" = 'x'", ' > 1', ' LIKE \'%\'', '[1] = 2')).map(([n, rest]) => n + rest));
  },
  literal_type_mismatch: (ctx) => {
    const pairs = [
      ...ofType(ctx, 'string', 'timestamp').map((f) => [f, 'text'] as const),
      ...ofType(ctx, 'integer', 'number').map((f) => [f, 'number'] as const),
      ...ofType(ctx, 'boolean').map((f) => [f, 'boolean'] as const),
    ];
    const faulty = fc.constantFrom(...pairs).chain(([f, type]) =>
      fc.tuple(fc.constantFrom(...(type === 'boolean' ? (['=', '!=', '<>'] as const) : ORDER)), otherKind(type)).map(([op, v]) => `${f} ${op} ${v}`),
    );
    return beside(ctx, faulty);
  },
  operator_not_allowed: (ctx) => {
    const like = fc.tuple(fc.constantFrom(...ofType(ctx, 'integer', 'number', 'boolean')), fc.constantFrom('LIKE', 'NOT LIKE', 'not like')).map(([f, op]) => `${f} ${op} '%1%'`);
    const bools = from(ofType(ctx, 'boolean'));
    const order = bools && fc.tuple(bools, fc.constantFrom('<', '<=', '>', '>='), fc.constantFrom('true', 'false')).map(([f, op, v]) => `${f} ${op} ${v}`);
    return beside(ctx, order ? fc.oneof(like, order) : like);
  },
  invalid_escape: (ctx) => {
    // `other` stands for the other quote, which needs no escape and so may not have one.
    const escape = fc.constantFrom('n', 't', 'u', '%', '_', '0', ' ', 'é', '😀', 'other');
    const faulty = fc.tuple(fc.constantFrom(...ofType(ctx, 'string')), fc.constantFrom("'", '"'), plainString, escape, plainString, fc.boolean()).map(
      ([f, q, a, e, b, asLike]) => `${f} ${asLike ? 'LIKE' : '='} ${q}${a}\\${e === 'other' ? (q === "'" ? '"' : "'") : e}${b}${q}`,
    );
    return beside(ctx, faulty);
  },
  unterminated_string: (ctx) =>
    atEnd(ctx, fc.tuple(fc.constantFrom(...ofType(ctx, 'string')), fc.constantFrom("'", '"'), plainString).map(([f, q, body]) => `${f} = ${q}${body}`)),
  unexpected_token: (ctx) => {
    const text = fc.constantFrom(...ofType(ctx, 'string'));
    return fc.oneof(
      ctx.valid.map((v) => `${v})`),
      fc.tuple(ctx.valid, ctx.valid).map(([a, b]) => `${a}) AND (${b}`),
      beside(ctx, text.map((f) => `${f} LIKE 5`)),
      beside(ctx, text.map((f) => `${f} 'x'`)),
      ctx.valid.map((v) => `AND ${v}`),
    );
  },
  unexpected_end: (ctx) =>
    fc.oneof(
      ctx.valid.map((v) => `(${v}`),
      fc.tuple(ctx.valid, ctx.valid).map(([a, b]) => `((${a}) AND (${b})`),
      ctx.valid.map((v) => `${v} AND`),
      atEnd(ctx, fc.constantFrom(...ofType(ctx, 'string')).map((f) => `${f} NOT`)),
    ),
  index_out_of_range: (ctx) => {
    const arrays = from(ofType(ctx, 'integer[]'));
    const max = ctx.targets ?? 6;
    const index = fc.oneof(fc.constant(0), fc.integer({ min: max + 1, max: 1_000_000 }));
    return arrays && beside(ctx, fc.tuple(arrays, index).map(([f, i]) => `${f}[${i}] > 1`));
  },
  index_required: (ctx) => {
    const arrays = from(ofType(ctx, 'integer[]'));
    return arrays && beside(ctx, fc.tuple(arrays, fc.constantFrom(...ORDER)).map(([f, op]) => `${f} ${op} 1`));
  },
  index_not_allowed: (ctx) =>
    beside(ctx, fc.tuple(fc.constantFrom(...ofType(ctx, 'integer')), fc.integer({ min: 0, max: 9 })).map(([f, i]) => `${f}[${i}] = 1`)),
  invalid_timestamp: (ctx) => {
    const stamps = from(ofType(ctx, 'timestamp'));
    const broken = fc.oneof(
      fc.constantFrom('', '2024-13', '2024-00', '2023-02-29', '2024-04-31', '2024-05-01T24', '2024-05-01T10:60', '0000', '2024-5', '2024-05-01 10:00', '2024-05-01T', 'yesterday', '2024-05-01T10:30:00Z'),
      fc.tuple(fc.constantFrom(1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18), fc.constant('2024-05-01T10:30:00')).map(([cut, t]) => t.slice(0, cut)),
      plainString,
    );
    return stamps && beside(ctx, fc.tuple(stamps, fc.constantFrom(...ORDER), broken.filter((t) => !isTimestampLiteral(t))).map(([f, op, t]) => `${f} ${op} ${printString(t)}`));
  },
  invalid_number: (ctx) =>
    beside(ctx, fc.tuple(fc.constantFrom(...ofType(ctx, 'integer')), fc.constantFrom('5abc', '1e5', '2.5e-3', '-3x', '0x1F', '12_000')).map(([f, n]) => `${f} > ${n}`)),
  number_out_of_range: (ctx) => {
    const big = fc.oneof(
      fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }).map(String),
      fc.constantFrom('9007199254740992', '9007199254740991.5', '18446744073709551616'),
    );
    return beside(ctx, fc.tuple(fc.constantFrom(...ofType(ctx, 'integer')), fc.boolean(), big).map(([f, neg, n]) => `${f} = ${neg ? '-' : ''}${n}`));
  },
  unexpected_character: (ctx) => {
    const chars = fc.constantFrom(';', '*', '#', '@', '$', '&', '|', '{', '}', ',', '.', ':', '?', '~', '^', '+', '/', '%', '`', '!', 'é', 'ß', '中', '😀', '\u00a0', '\u2028');
    return fc.tuple(ctx.valid, chars, fc.boolean()).map(([v, c, first]) => (first ? `${c} ${v}` : `${v} ${c}`));
  },
  empty_filter: () => fc.string({ unit: fc.constantFrom(' ', '\t', '\r', '\n'), maxLength: 20 }),
  too_long: (ctx) =>
    Number.isFinite(ctx.limits.maxLength) && ctx.limits.maxLength < 1e6
      ? fc.tuple(ctx.valid, fc.nat(50)).map(([v, extra]) => v + ' '.repeat(Math.max(0, ctx.limits.maxLength - v.length) + 1 + extra))
      : undefined,
  too_deep: (ctx) => {
    const max = ctx.limits.maxDepth;
    if (!Number.isFinite(max) || max > 10_000) return undefined;
    return fc.tuple(ctx.valid, fc.integer({ min: max + 1, max: max + 20 })).map(([v, d]) => `${'('.repeat(d)}${v}${')'.repeat(d)}`);
  },
  too_many_conditions: (ctx) => {
    const max = ctx.limits.maxConditions;
    if (!Number.isFinite(max) || max > 10_000) return undefined;
    const short = [...ofType(ctx, 'integer')].sort((a, b) => a.length - b.length)[0]!;
    return fc
      .tuple(fc.integer({ min: max + 1, max: max + 30 }), fc.array(fc.constantFrom(' AND ', ' OR ', ' and '), { minLength: 1, maxLength: 8 }))
      .map(([n, joins]) => Array.from({ length: n }, (_, i) => `${short} = ${printNumber(i)}`).reduce((acc, c, i) => acc + joins[i % joins.length]! + c))
      .filter((text) => text.length <= ctx.limits.maxLength);
  },
};

/** Codes that need the operation's fields; the rest can be raised by any operation's text. */
const FIELD_CODES: ReadonlySet<IssueCode> = new Set<IssueCode>([
  'unknown_field', 'literal_type_mismatch', 'operator_not_allowed', 'index_out_of_range', 'index_required', 'index_not_allowed', 'invalid_timestamp',
]);

/**
 * Invalid filter texts for one operation, each labelled with an issue code that checking the
 * text for that operation (and target count, and limits) must raise. For an operation that takes
 * no filter, a valid-looking filter is labelled `filter_not_allowed`, and syntax faults keep
 * their own codes.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(invalidFilterArbitrary('links'), ({ text, code }) => {
 *   const result = safeParseFilter(text, { operation: 'links' });
 *   expect(!result.ok && result.issues.some((i) => i.code === code)).toBe(true);
 * }));
 * ```
 */
export function invalidFilterArbitrary(operation: OperationName | (string & {}), options: InvalidFilterOptions = {}): Arbitrary<InvalidFilterCase> {
  const name = checkTargetOptions(operation, options.targets);
  const filterable = operations[name].filter;
  const ctx = context(filterable ? name : 'links', options);
  const cases: Arbitrary<InvalidFilterCase>[] = [];
  for (const [code, generate] of Object.entries(GENERATORS) as [IssueCode, Generator][]) {
    if (options.codes && !options.codes.includes(code)) continue;
    if (!filterable && FIELD_CODES.has(code)) continue;
    const texts = generate(ctx);
    if (texts) cases.push(texts.map((text) => ({ text, code })));
  }
  if (!filterable && (!options.codes || options.codes.includes('filter_not_allowed'))) {
    cases.push(filterTextArbitrary('links', { maxDepth: 2, maxConditions: 5 }).map((text) => ({ text, code: 'filter_not_allowed' as const })));
  }
  if (cases.length === 0) throw new RangeError(`No invalid filter of the requested codes exists for ${name}.`);
  return fc.oneof(...cases);
}

function context(operation: string, options: InvalidFilterOptions): Context {
  const fields = new Map<string, string[]>();
  const spec = operations[checkTargetOptions(operation)].record as Readonly<Record<string, { type: string }>>;
  for (const [field, { type }] of Object.entries(spec)) fields.set(type, [...(fields.get(type) ?? []), field]);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const small = { targets: options.targets, maxDepth: 2, maxConditions: 3 };
  return {
    fields,
    names: Object.keys(spec),
    valid: filterAstArbitrary(operation, small).map(printFilter),
    targets: options.targets,
    limits,
  };
}
