/**
 * The lexer and the parsers are built with Chevrotain's definition checks skipped
 * (`skipValidations`), and the lexer with a `start_chars_hint` on each RegExp token type: the
 * build leaves the checks and Chevrotain's RegExp analysis out of the package
 * (scripts/chevrotain-stubs.ts). Here, with the real Chevrotain, the same grammar and tokens are
 * built with the checks ON and must give no error or warning, and each hint must be exactly what
 * Chevrotain works out from the RegExp itself.
 */
import { Lexer, type TokenType } from 'chevrotain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilterParser } from '../../../src/syntax/parser.js';
import * as t from '../../../src/syntax/tokens.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** What Chevrotain keeps of a lexer's definition and analysis (not in its typings). */
interface LexerState {
  lexerDefinitionErrors: unknown[];
  lexerDefinitionWarning: unknown[];
  charCodeToPatternIdxToConfig: Record<string, ({ tokenType: TokenType }[] | undefined)[]>;
  canModeBeOptimized: Record<string, boolean>;
}

describe('the grammar, with Chevrotain’s validations on', () => {
  it.each([
    ['the recovering parser', true],
    ['the parser without recovery', false],
  ])('%s: analysed with no definition error', (_, recovery) => {
    const parser = new FilterParser(recovery, true);
    // The analysis (recording, validations, lookahead) runs on the first load; Chevrotain throws
    // on a definition error.
    expect(() => parser.load([])).not.toThrow();
    expect((parser as unknown as { definitionErrors: unknown[] }).definitionErrors).toEqual([]);
  });

  it('the validations do run when asked for: an ambiguous rule added to the grammar is reported, and not without them', () => {
    class Ambiguous extends FilterParser {
      twice = this.RULE('twice', () => this.OR([{ ALT: () => this.CONSUME(t.Word) }, { ALT: () => this.CONSUME2(t.Word) }]));
    }
    expect(() => new Ambiguous(true, true).load([])).toThrow(/Ambiguous Alternatives Detected/);
    expect(() => new Ambiguous(true, false).load([])).not.toThrow();
  });
});

describe('the lexer', () => {
  it('with Chevrotain’s validations on: no definition error, no warning', () => {
    // Restored after: the unit project's files share their worker (isolate: false).
    const warn = vi.spyOn(console, 'warn');
    try {
      const lexer = new Lexer(t.allTokens, { ...t.LEXER_CONFIG, skipValidations: false }) as unknown as LexerState;
      expect(lexer.lexerDefinitionErrors).toEqual([]);
      expect(lexer.lexerDefinitionWarning).toEqual([]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('every token type with a RegExp pattern has a start_chars_hint (Lexer.NA, a category, is no pattern)', () => {
    const withoutHint = t.allTokens.filter((type) => type.PATTERN instanceof RegExp && type.PATTERN !== Lexer.NA && !Array.isArray(type.START_CHARS_HINT));
    expect(withoutHint.map((type) => type.name)).toEqual([]);
  });

  it('each hint is what Chevrotain works out from the RegExp: the same first-character table, optimized', () => {
    /** The lexer's table: for each first character (by Chevrotain's index), the token types it tries, in order. */
    const table = (lexer: LexerState) =>
      Object.fromEntries(Object.entries(lexer.charCodeToPatternIdxToConfig['defaultMode']!).map(([code, configs]) => [code, (configs ?? []).map((config) => config.tokenType.name)]));
    const hinted = new Lexer(t.allTokens, t.LEXER_CONFIG) as unknown as LexerState;
    const hints = new Map(t.allTokens.map((type) => [type, type.START_CHARS_HINT]));
    let analysed: LexerState;
    try {
      for (const type of t.allTokens) delete type.START_CHARS_HINT;
      analysed = new Lexer(t.allTokens, t.LEXER_CONFIG) as unknown as LexerState;
    } finally {
      for (const [type, hint] of hints) if (hint !== undefined) type.START_CHARS_HINT = hint;
    }
    expect(hinted.canModeBeOptimized).toEqual({ defaultMode: true });
    expect(analysed.canModeBeOptimized).toEqual({ defaultMode: true });
    expect(Object.keys(table(analysed)).length).toBeGreaterThan(60);
    expect(table(hinted)).toEqual(table(analysed));
  });
});
