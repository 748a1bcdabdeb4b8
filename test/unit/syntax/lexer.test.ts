/**
 * The lexer alone: which token each piece of text becomes, and what it reports.
 */
import { describe, expect, it } from 'vitest';
import * as t from '../../../src/syntax/tokens.js';

const kinds = (text: string) => t.filterLexer.tokenize(text).tokens.map((tok) => `${tok.tokenType.name}:${tok.image}`);

describe('filterLexer', () => {
  it.each([
    ['AND', 'AND:AND'],
    ['and', 'AND:and'],
    ['aNd', 'AND:aNd'],
    ['ANDROID', 'Word:ANDROID'],
    ['ORACLE', 'Word:ORACLE'],
    ['or_', 'Word:or_'],
    ['NOTE', 'Word:NOTE'],
    ['like', 'LIKE:like'],
    ['LIKEs', 'Word:LIKEs'],
    ['True', 'TRUE:True'],
    ['falsey', 'Word:falsey'],
    ['_', 'Word:_'],
    ['x9', 'Word:x9'],
  ])('reads %j as one token', (text, expected) => {
    expect(kinds(text)).toEqual([expected]);
  });

  it.each([
    ['<=', 'LessEqual'],
    ['<>', 'NotEqualAlt'],
    ['>=', 'GreaterEqual'],
    ['!=', 'NotEqual'],
    ['<', 'Less'],
    ['>', 'Greater'],
    ['=', 'Equal'],
  ])('takes the longest operator: %s', (text, name) => {
    const [token] = t.filterLexer.tokenize(text).tokens;
    expect(token?.tokenType.name).toBe(name);
    expect(token?.tokenType.CATEGORIES).toContain(t.CompareOp);
  });

  it('splits operators that only look alike', () => {
    expect(kinds('<=>')).toEqual(['LessEqual:<=', 'Greater:>']);
    expect(kinds('==')).toEqual(['Equal:=', 'Equal:=']);
    expect(kinds('< >')).toEqual(['Less:<', 'Greater:>']);
  });

  it.each([
    ['5', 'Digits'],
    ['007', 'Digits'],
    ['-5', 'NegativeInteger'],
    ['5.25', 'Decimal'],
    ['-0.5', 'Decimal'],
    ['5abc', 'BadNumber'],
    ['1AND', 'BadNumber'],
    ['1e5', 'BadNumber'],
    ['1e-7', 'BadNumber'],
    ['2.5E+3', 'BadNumber'],
    ['1_000', 'BadNumber'],
  ])('reads the number %j as %s', (text, name) => {
    const { tokens } = t.filterLexer.tokenize(text);
    expect(tokens.map((tok) => [tok.tokenType.name, tok.image])).toEqual([[name, text]]);
  });

  it('does not read a sign or point that is not part of a number', () => {
    const result = t.filterLexer.tokenize('+5 .5 5.');
    expect(result.tokens.map((tok) => tok.image)).toEqual(['5', '5', '5']);
    expect(result.errors.map((e) => [e.offset, e.length])).toEqual([[0, 1], [3, 1], [7, 1]]);
  });

  it.each([
    ["'abc'", 'SingleQuoted'],
    ['"abc"', 'DoubleQuoted'],
    ["'it\\'s'", 'SingleQuoted'],
    ["'a\nb\r\nc'", 'SingleQuoted'],
    ["'a\\\\'", 'SingleQuoted'],
    ["'abc", 'UnterminatedString'],
    ["'abc\\'", 'UnterminatedString'],
    ["'abc\\", 'UnterminatedString'],
    ['"x\' ', 'UnterminatedString'],
  ])('reads the string %j as %s', (text, name) => {
    const { tokens, errors } = t.filterLexer.tokenize(text);
    expect(errors).toEqual([]);
    expect(tokens.map((tok) => [tok.tokenType.name, tok.image])).toEqual([[name, text]]);
  });

  it('skips exactly space, tab, CR and LF', () => {
    const result = t.filterLexer.tokenize(' \t\r\na\u00a0\f\vb');
    expect(result.tokens.map((tok) => [tok.image, tok.startOffset])).toEqual([['a', 4], ['b', 8]]);
    expect(result.errors.map((e) => [e.offset, e.length])).toEqual([[5, 3]]);
  });

  it('reports a run of unknown characters once, an astral character as its two units', () => {
    const result = t.filterLexer.tokenize('a ;;; b 😀 c é');
    expect(result.tokens.map((tok) => tok.image)).toEqual(['a', 'b', 'c']);
    expect(result.errors.map((e) => [e.offset, e.length])).toEqual([[2, 3], [8, 2], [13, 1]]);
  });

  it('keeps offsets in UTF-16 units after astral characters', () => {
    const [, second] = t.filterLexer.tokenize("'😀' x").tokens;
    expect(second?.startOffset).toBe(5);
  });
});
