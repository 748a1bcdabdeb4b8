/**
 * Every token of the filter language, in the order the lexer tries them. Order matters:
 * white space first (skipped), keywords before words (with `longer_alt`, so `ANDROID` is one word),
 * longer operators before their prefixes, the malformed forms (`5abc`, an unclosed string) before
 * the well-formed ones they start like. Any other character is a lexer error (not a catch-all
 * token: a complement-set pattern would switch off Chevrotain's first-character optimization).
 *
 * Every token type with a RegExp pattern states the characters its matches start with
 * (`start_chars_hint`), for that optimization: Chevrotain would otherwise work them out from the
 * RegExp with its RegExp parser (@chevrotain/regexp-to-ast), which the build then leaves out of
 * the package (scripts/chevrotain-stubs.ts). test/unit/syntax/definition.test.ts checks that each
 * hint is exactly what Chevrotain works out.
 *
 * @module
 * @internal
 */
import { createToken, Lexer, type ILexerConfig, type TokenType } from 'chevrotain';

/** The characters from `first` to `last`, for a `start_chars_hint`. */
const from = (first: string, last: string) =>
  Array.from({ length: last.charCodeAt(0) - first.charCodeAt(0) + 1 }, (_, index) => String.fromCharCode(first.charCodeAt(0) + index));
const LETTERS = [...from('A', 'Z'), ...from('a', 'z'), '_'];
const DIGITS = from('0', '9');

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n]+/, start_chars_hint: [' ', '\t', '\r', '\n'], group: Lexer.SKIPPED });

// Labels name each token as grammar/filter.ebnf does; the railroad diagrams show them.
export const Word = createToken({ name: 'Word', label: 'name', pattern: /[A-Za-z_][A-Za-z0-9_]*/, start_chars_hint: LETTERS });

const keyword = (name: string) =>
  createToken({ name, pattern: new RegExp(name, 'i'), start_chars_hint: [name[0]!.toUpperCase(), name[0]!.toLowerCase()], longer_alt: Word });

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
  start_chars_hint: ['-', ...DIGITS],
  categories: [NumberLit],
});
export const Decimal = createToken({ name: 'Decimal', pattern: /-?[0-9]+\.[0-9]+/, start_chars_hint: ['-', ...DIGITS], categories: [NumberLit] });
export const NegativeInteger = createToken({ name: 'NegativeInteger', pattern: /-[0-9]+/, start_chars_hint: ['-'], categories: [NumberLit] });
export const Digits = createToken({ name: 'Digits', label: 'digits', pattern: /[0-9]+/, start_chars_hint: DIGITS, categories: [NumberLit] });

/** Every string literal is in this category. */
export const StringLit = createToken({ name: 'StringLit', label: 'string', pattern: Lexer.NA });
export const SingleQuoted = createToken({
  name: 'SingleQuoted',
  pattern: /'(?:[^'\\]|\\[^])*'/,
  start_chars_hint: ["'"],
  categories: [StringLit],
  line_breaks: true,
});
export const DoubleQuoted = createToken({
  name: 'DoubleQuoted',
  pattern: /"(?:[^"\\]|\\[^])*"/,
  start_chars_hint: ['"'],
  categories: [StringLit],
  line_breaks: true,
});
/** A string with no closing quote runs to the end of the input: an error, parsed as a string. */
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  pattern: /(?:'(?:[^'\\]|\\[^])*|"(?:[^"\\]|\\[^])*)\\?/,
  start_chars_hint: ["'", '"'],
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

/**
 * The lexer's configuration. Line tracking is off: positions are computed only when reporting.
 * Chevrotain's checks of the token definitions are skipped (`skipValidations`): they would run on
 * every first lex of a program, and the build leaves them out (scripts/chevrotain-stubs.ts);
 * test/unit/syntax/definition.test.ts runs them.
 * @internal
 */
export const LEXER_CONFIG: ILexerConfig = { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations: true };

let lexer: Lexer | undefined;

/**
 * The one lexer, built on its first `tokenize` rather than when this module loads: building a
 * Chevrotain lexer analyses every pattern, which a program that imports the package but never
 * parses should not pay for.
 */
export const filterLexer: Pick<Lexer, 'tokenize'> = {
  tokenize: (text) => (lexer ??= new Lexer(allTokens, LEXER_CONFIG)).tokenize(text),
};
