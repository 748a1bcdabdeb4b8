/**
 * Every token of the filter language, in the order the lexer tries them. Order matters:
 * white space first (skipped), keywords before words (with `longer_alt`, so `ANDROID` is one word),
 * longer operators before their prefixes, the malformed forms (`5abc`, an unclosed string) before
 * the well-formed ones they start like. Any other character is a lexer error (not a catch-all
 * token: a complement-set pattern would switch off Chevrotain's first-character optimization).
 *
 * @module
 * @internal
 */
import { createToken, Lexer, type TokenType } from 'chevrotain';

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED });

// Labels name each token as grammar/filter.ebnf does; the railroad diagrams show them.
export const Word = createToken({ name: 'Word', label: 'name', pattern: /[A-Za-z_][A-Za-z0-9_]*/ });

const keyword = (name: string) =>
  createToken({ name, pattern: new RegExp(name, 'i'), longer_alt: Word });

export const And = keyword('AND');
export const Or = keyword('OR');
export const Not = keyword('NOT');
export const Like = keyword('LIKE');
export const True = keyword('TRUE');
export const False = keyword('FALSE');

/** All comparison operators share this category. */
export const CompareOp = createToken({ name: 'CompareOp', label: 'compare_op', pattern: Lexer.NA });
const op = (name: string, pattern: string) =>
  createToken({ name, pattern, categories: [CompareOp] });
export const LessEqual = op('LessEqual', '<=');
export const NotEqualAlt = op('NotEqualAlt', '<>');
export const GreaterEqual = op('GreaterEqual', '>=');
export const NotEqual = op('NotEqual', '!=');
export const Less = op('Less', '<');
export const Greater = op('Greater', '>');
export const Equal = op('Equal', '=');

export const LParen = createToken({ name: 'LParen', label: '"("', pattern: '(' });
export const RParen = createToken({ name: 'RParen', label: '")"', pattern: ')' });
export const LBracket = createToken({ name: 'LBracket', label: '"["', pattern: '[' });
export const RBracket = createToken({ name: 'RBracket', label: '"]"', pattern: ']' });

/** Every number literal is in this category; `Digits` alone is also an index. */
export const NumberLit = createToken({ name: 'NumberLit', label: 'number', pattern: Lexer.NA });
/**
 * A number running straight into a word (`5abc`, `1AND`), or written with an exponent (`1e-7`,
 * taken whole so the issue covers it all): an error, parsed as a number to avoid cascades.
 */
export const BadNumber = createToken({
  name: 'BadNumber',
  pattern: /-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-][0-9]+|[A-Za-z_])[A-Za-z0-9_]*/,
  categories: [NumberLit],
});
export const Decimal = createToken({ name: 'Decimal', pattern: /-?[0-9]+\.[0-9]+/, categories: [NumberLit] });
export const NegativeInteger = createToken({ name: 'NegativeInteger', pattern: /-[0-9]+/, categories: [NumberLit] });
export const Digits = createToken({ name: 'Digits', label: 'digits', pattern: /[0-9]+/, categories: [NumberLit] });

/** Every string literal is in this category. */
export const StringLit = createToken({ name: 'StringLit', label: 'string', pattern: Lexer.NA });
export const SingleQuoted = createToken({
  name: 'SingleQuoted',
  pattern: /'(?:[^'\\]|\\[^])*'/,
  categories: [StringLit],
  line_breaks: true,
});
export const DoubleQuoted = createToken({
  name: 'DoubleQuoted',
  pattern: /"(?:[^"\\]|\\[^])*"/,
  categories: [StringLit],
  line_breaks: true,
});
/** A string with no closing quote runs to the end of the input: an error, parsed as a string. */
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  pattern: /(?:'(?:[^'\\]|\\[^])*|"(?:[^"\\]|\\[^])*)\\?/,
  categories: [StringLit],
  line_breaks: true,
});

export const allTokens: TokenType[] = [
  WhiteSpace,
  And,
  Or,
  Not,
  Like,
  True,
  False,
  Word,
  LessEqual,
  NotEqualAlt,
  GreaterEqual,
  NotEqual,
  Less,
  Greater,
  Equal,
  LParen,
  RParen,
  LBracket,
  RBracket,
  BadNumber,
  Decimal,
  NegativeInteger,
  Digits,
  NumberLit,
  SingleQuoted,
  DoubleQuoted,
  UnterminatedString,
  StringLit,
  CompareOp,
];

let lexer: Lexer | undefined;

/**
 * The one lexer, built on its first `tokenize` rather than when this module loads: building a
 * Chevrotain lexer analyses every pattern, which a program that imports the package but never
 * parses should not pay for. Line tracking is off: positions are computed only when reporting.
 */
export const filterLexer: Pick<Lexer, 'tokenize'> = {
  tokenize: (text) => (lexer ??= new Lexer(allTokens, { positionTracking: 'onlyOffset', ensureOptimizations: true })).tokenize(text),
};
