/**
 * The grammar of the filter language, rule for rule as `grammar/filter.ebnf`. The embedded actions
 * only build AST nodes with the frozen factories; meaning (fields, types, limits) lives elsewhere.
 * Embedded actions rather than a CST plus visitor: the CST pass was too costly (README.md, section
 * "Design").
 *
 * @module
 * @internal
 */
import { EmbeddedActionsParser, type IParserErrorMessageProvider, type ISerializedGast, type IToken, type TokenType } from 'chevrotain';
import * as ast from '../ast/factories.js';
import type { ComparisonOperator, Condition, Field, FilterNode, Literal, Span, StringLiteral } from '../ast/nodes.js';
import { OPERATOR_SPELLINGS } from '../ast/nodes.js';
import { decodeNumber, decodeString } from './literals.js';
import * as t from './tokens.js';

/** Whether a token came from the text (recovery inserts virtual tokens with no offset). */
const isReal = (token: IToken) => Number.isFinite(token.startOffset);

const spanOf = (first: IToken, last: IToken): Span => ({
  offset: first.startOffset,
  length: last.startOffset + last.image.length - first.startOffset,
});

const between = (first: Span, last: Span): Span => ({
  offset: first.offset,
  length: last.offset + last.length - first.offset,
});

const TOKEN_LABELS: Readonly<Record<string, string>> = {
  Word: 'a field name',
  CompareOp: 'a comparison operator',
  StringLit: 'a string',
  NumberLit: 'a number',
  Digits: 'an index (digits)',
  LParen: '"("',
  RParen: '")"',
  LBracket: '"["',
  RBracket: '"]"',
  AND: 'AND',
  OR: 'OR',
  NOT: 'NOT',
  LIKE: 'LIKE',
  TRUE: 'true',
  FALSE: 'false',
  EOF: 'the end of the filter',
};

const label = (type: TokenType) => TOKEN_LABELS[type.name] ?? type.name;

const oneOf = (labels: readonly string[]) => {
  const unique = [...new Set(labels)];
  return unique.length === 1 ? unique[0]! : `${unique.slice(0, -1).join(', ')} or ${unique[unique.length - 1]}`;
};

/**
 * Error "messages" that are only the expected-token list in words; parse.ts turns them into
 * issues with our own wording, so no Chevrotain text reaches a caller.
 */
const expectations: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected }) => label(expected),
  buildNotAllInputParsedMessage: () => 'AND, OR or the end of the filter',
  buildNoViableAltMessage: ({ expectedPathsPerAlt }) => oneOf(expectedPathsPerAlt.flat().map((path) => label(path[0]!))),
  buildEarlyExitMessage: ({ expectedIterationPaths }) => oneOf(expectedIterationPaths.map((path) => label(path[0]!))),
};

/**
 * Thrown out of a parse that recorded more errors than its {@link FilterParser.errorBudget}
 * (Chevrotain re-throws anything that is not one of its own recognition errors).
 * @internal
 */
export const PARSE_STOPPED: unique symbol = Symbol('parse stopped: too many errors');

/** @internal */
export class FilterParser extends EmbeddedActionsParser {
  /**
   * Conditions built from recovered or virtual tokens: parsed, but not without doubt. Created on
   * the first such condition: only the recovering parser ever meets one.
   */
  private doubts: WeakSet<Condition> | undefined;
  /**
   * The partial group of the innermost `and_expr`/`or_expr` that was left by an exception, so
   * that the rule which recovers (re-syncs) can return the conditions parsed before the error
   * instead of dropping them (their field and type issues would be lost otherwise).
   */
  private pending: FilterNode | undefined;

  /**
   * Every condition built by the last parse, in the order of the text. After a parse without
   * errors these are exactly the conditions of the AST (no rule is retried or dropped), so the
   * checks need no walk of the tree; after a recovery some may be missing from the AST.
   */
  conditions: Condition[] = [];

  /** Whether Chevrotain's self-analysis has run (see {@link FilterParser.analyse}). */
  private analysed = false;

  /**
   * How many parse errors the next parse may record: one more stops it, with
   * {@link PARSE_STOPPED} thrown out of the rule (set around one parse; no bound otherwise). The
   * recovering parser's work grows with the errors it re-syncs from: this bounds it.
   */
  errorBudget = Number.POSITIVE_INFINITY;
  private errorCount = 0;

  /**
   * Construction only registers the rules; the grammar is analysed (recorded, validated, its
   * lookahead computed: the costly part) on the first {@link FilterParser.load}, so that loading
   * the package does not build parsers that a program may never use.
   *
   * @param recovery whether to re-sync after an error and go on (finds every issue, costs time).
   * @param validations whether the analysis runs Chevrotain's checks of the grammar (ambiguities,
   *   left recursion, …). Off for the package's parsers: the checks find nothing in a grammar that
   *   does not change, cost time on every program's first parse, and the build leaves them out
   *   (scripts/chevrotain-stubs.ts); test/unit/syntax/definition.test.ts runs them.
   */
  constructor(recovery = true, validations = false) {
    super(t.allTokens, { recoveryEnabled: recovery, maxLookahead: 2, errorMessageProvider: expectations, skipValidations: !validations });
  }

  /** Runs Chevrotain's self-analysis once; every use of the parser goes through here first. */
  private analyse(): void {
    if (this.analysed) return;
    this.performSelfAnalysis();
    this.analysed = true;
  }

  /** The grammar as Chevrotain records it (for the railroad diagrams and the EBNF check). */
  override getSerializedGastProductions(): ISerializedGast[] {
    this.analyse();
    return super.getSerializedGastProductions();
  }

  /**
   * The token types that may come after `tokens` (a prefix of a filter), by Chevrotain's content
   * assist; none when the prefix is not the start of any filter.
   */
  nextTokenTypes(tokens: IToken[]): TokenType[] {
    this.analyse();
    return this.computeContentAssist('filter', tokens).map((path) => path.nextTokenType);
  }

  /** Sets the next input; also clears what the previous parse marked. */
  load(tokens: IToken[]): void {
    this.analyse();
    this.input = tokens;
    this.doubts = undefined;
    this.pending = undefined;
    this.conditions = [];
    this.errorCount = 0;
  }

  /**
   * Chevrotain records every parse error through this method (not in its typings, present since
   * its first versions); past {@link FilterParser.errorBudget} the parse stops here.
   */
  SAVE_ERROR(error: unknown): unknown {
    const base = Object.getPrototypeOf(FilterParser.prototype) as { SAVE_ERROR(this: FilterParser, error: unknown): unknown };
    const saved = base.SAVE_ERROR.call(this, error);
    if (++this.errorCount > this.errorBudget) throw PARSE_STOPPED;
    return saved;
  }

  /** Whether `condition` was built from recovered or virtual tokens in the last parse. */
  isDoubtful(condition: Condition): boolean {
    return this.doubts !== undefined && this.doubts.has(condition);
  }

  private markDoubtful(condition: Condition): void {
    (this.doubts ??= new WeakSet()).add(condition);
  }

  /** The recovery value of a rule that re-synced: the partial group left by the error, if any. */
  private takePending = (): FilterNode | undefined => {
    const partial = this.pending;
    this.pending = undefined;
    return partial;
  };

  /** filter = or_expr EOF */
  filter = this.RULE('filter', (): FilterNode | undefined => this.SUBRULE(this.orExpr), { recoveryValueFunc: this.takePending });

  /** or_expr = and_expr { OR and_expr } */
  orExpr = this.RULE(
    'orExpr',
    (): FilterNode | undefined => {
      const operands: (FilterNode | undefined)[] = [];
      let finished = false;
      try {
        operands.push(this.SUBRULE(this.andExpr));
        this.MANY(() => {
          this.CONSUME(t.Or);
          operands.push(this.SUBRULE2(this.andExpr));
        });
        finished = true;
      } finally {
        if (!finished) this.leavePartial('Or', operands);
      }
      return this.ACTION(() => this.group('Or', operands));
    },
    { recoveryValueFunc: this.takePending },
  );

  /** and_expr = primary { AND primary } */
  andExpr = this.RULE(
    'andExpr',
    (): FilterNode | undefined => {
      const operands: (FilterNode | undefined)[] = [];
      let finished = false;
      try {
        operands.push(this.SUBRULE(this.primary));
        this.MANY(() => {
          this.CONSUME(t.And);
          operands.push(this.SUBRULE2(this.primary));
        });
        finished = true;
      } finally {
        if (!finished) this.leavePartial('And', operands);
      }
      return this.ACTION(() => this.group('And', operands));
    },
    { recoveryValueFunc: this.takePending },
  );

  /** primary = "(" or_expr ")" | condition */
  primary = this.RULE('primary', (): FilterNode | undefined =>
    this.OR([
      {
        ALT: () => {
          this.CONSUME(t.LParen);
          const inner = this.SUBRULE(this.orExpr);
          let closed = false;
          try {
            this.CONSUME(t.RParen);
            closed = true;
          } finally {
            // A missing `)`: leave the complete inner group for the rule that recovers.
            if (!closed && !this.RECORDING_PHASE) this.pending = inner;
          }
          return inner;
        },
      },
      { ALT: () => this.SUBRULE(this.condition) },
    ]),
    { recoveryValueFunc: this.takePending },
  );

  /** condition = field ( compare_op literal | [ NOT ] LIKE string ) */
  condition = this.RULE('condition', (): Condition | undefined => {
    const fieldNode = this.SUBRULE(this.field);
    return this.OR([
      {
        ALT: () => {
          const operator = this.CONSUME(t.CompareOp);
          const value = this.SUBRULE(this.literal);
          return this.ACTION(() => (fieldNode && value ? this.buildComparison(fieldNode, operator, value) : undefined));
        },
      },
      {
        ALT: () => {
          const not = this.OPTION(() => this.CONSUME(t.Not));
          const likeToken = this.CONSUME(t.Like);
          const pattern = this.CONSUME(t.StringLit);
          return this.ACTION(() => (fieldNode ? this.buildLike(fieldNode, not, likeToken, pattern) : undefined));
        },
      },
    ]);
  });

  /** field = name [ "[" digits "]" ] */
  field = this.RULE('field', (): Field | undefined => {
    const name = this.CONSUME(t.Word);
    let last = name;
    let index: IToken | undefined;
    this.OPTION(() => {
      this.CONSUME(t.LBracket);
      index = this.CONSUME(t.Digits);
      last = this.CONSUME(t.RBracket);
    });
    return this.ACTION(() => {
      const value = index && isReal(index) ? Number(index.image) : index ? Number.NaN : null;
      return ast.field(name.image, value, isReal(last) ? spanOf(name, last) : spanOf(name, name));
    });
  });

  /** literal = string | number | TRUE | FALSE */
  literal = this.RULE('literal', (): Literal | undefined => {
    const token = this.OR([
      { ALT: () => this.CONSUME(t.StringLit) },
      { ALT: () => this.CONSUME(t.NumberLit) },
      { ALT: () => this.CONSUME(t.True) },
      { ALT: () => this.CONSUME(t.False) },
    ]);
    return this.ACTION(() => literalOf(token));
  });

  private buildComparison(fieldNode: Field, operator: IToken, value: Literal): Condition {
    const end = isReal(operator) && value.span.offset >= 0 ? value.span : fieldNode.span;
    const node = ast.comparison(fieldNode, OPERATOR_SPELLINGS[operator.image] ?? '=', value, between(fieldNode.span, end));
    this.conditions.push(node);
    if (!isReal(operator) || !Number.isFinite(value.span.offset) || Number.isNaN(fieldNode.index)) this.markDoubtful(node);
    return node;
  }

  private buildLike(fieldNode: Field, not: IToken | undefined, likeToken: IToken, pattern: IToken): Condition {
    const real = isReal(likeToken) && isReal(pattern) && (not === undefined || isReal(not));
    const end = real ? spanOf(pattern, pattern) : fieldNode.span;
    const node = ast.like(fieldNode, stringOf(pattern), not !== undefined, between(fieldNode.span, end));
    this.conditions.push(node);
    if (!real || Number.isNaN(fieldNode.index)) this.markDoubtful(node);
    return node;
  }

  /**
   * Called when the body of an `and_expr`/`or_expr` ends in an exception: leaves the operands
   * parsed so far (plus the partial group of an inner rule that failed) in `pending` for the rule
   * that recovers. The rule's `finally` runs before Chevrotain's catch in the same invocation, so
   * the innermost failing group is always the last one set.
   */
  private leavePartial(kind: 'And' | 'Or', operands: (FilterNode | undefined)[]): void {
    if (this.RECORDING_PHASE) return;
    operands.push(this.pending);
    this.pending = this.group(kind, operands);
  }

  private group(kind: 'And' | 'Or', operands: (FilterNode | undefined)[]): FilterNode | undefined {
    const present = operands.filter((o): o is FilterNode => o !== undefined);
    if (present.length === 0) return undefined;
    const span = between(present[0]!.span, present[present.length - 1]!.span);
    return kind === 'And' ? ast.and(present, span) : ast.or(present, span);
  }
}

function stringOf(token: IToken): StringLiteral {
  if (!isReal(token)) return ast.stringLiteral('', { offset: Number.NaN, length: 0 });
  return ast.stringLiteral(decodeString(token.image), spanOf(token, token));
}

function literalOf(token: IToken): Literal {
  if (!isReal(token)) return ast.stringLiteral('', { offset: Number.NaN, length: 0 });
  const span = spanOf(token, token);
  const type: TokenType = token.tokenType;
  if (type === t.True) return ast.booleanLiteral(true, span);
  if (type === t.False) return ast.booleanLiteral(false, span);
  if (type === t.SingleQuoted || type === t.DoubleQuoted || type === t.UnterminatedString) {
    return ast.stringLiteral(decodeString(token.image), span);
  }
  return ast.numberLiteral(decodeNumber(token.image), span);
}

/**
 * The parser instances, reused for every parse (Chevrotain parsers are meant to be reused): one
 * without error recovery for the common case of a well-formed filter, and one that recovers, run
 * only when the first one met an error, to find every issue. Each analyses its grammar on its
 * first use (the recovering one only when some filter has an error).
 */
export const filterParser = /* @__PURE__ */ new FilterParser();
/** @internal */
export const fastParser = /* @__PURE__ */ new FilterParser(false);
