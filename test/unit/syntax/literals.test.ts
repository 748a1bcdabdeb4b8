/**
 * Decoding and checking of literal tokens.
 */
import { describe, expect, it } from 'vitest';
import type { IssueDraft } from '../../../src/errors/issue.js';
import { checkString, decodeNumber, decodeString, isNumberOutOfRange } from '../../../src/syntax/literals.js';

const issuesOf = (image: string, offset = 0) => {
  const issues: IssueDraft[] = [];
  checkString(image, offset, issues);
  return issues.map((i) => `${i.code}@${i.offset}+${i.length}`);
};

describe('decodeString', () => {
  it.each([
    ["'abc'", 'abc'],
    ['"abc"', 'abc'],
    ["''", ''],
    ["'it\\'s'", "it's"],
    ['"say \\"hi\\""', 'say "hi"'],
    ["'C:\\\\dir'", 'C:\\dir'],
    ["'a\nb'", 'a\nb'],
    ["'abc", 'abc'],
    ["'abc\\'", "abc'"],
    ["'\\n'", 'n'],
    ["'😀'", '😀'],
  ])('%j is %j', (image, value) => {
    expect(decodeString(image)).toBe(value);
  });
});

describe('checkString', () => {
  it.each([
    ["'abc'", []],
    ["'it\\'s'", []],
    ["'\\\\'", []],
    ["'\\n'", ['invalid_escape@11+2']],
    ["'\\\"'", ['invalid_escape@11+2']],
    ['"\\\'"', ['invalid_escape@11+2']],
    ["'\\😀'", ['invalid_escape@11+3']],
    ["'abc", ['unterminated_string@10+1']],
    ["'abc\\'", ['unterminated_string@10+1']],
    ["'abc\\", ['unterminated_string@10+1', 'invalid_escape@14+1']],
    ["'\\a\\b'", ['invalid_escape@11+2', 'invalid_escape@13+2']],
  ])('%j gives %j', (image, expected) => {
    expect(issuesOf(image, 10)).toEqual(expected);
  });
});

describe('decodeNumber', () => {
  it.each([
    ['5', 5],
    ['-0', 0],
    ['-0.0', 0],
    ['5.50', 5.5],
    ['007', 7],
    ['0.1', 0.1],
    ['5abc', 5],
    ['1e5', 1],
  ])('%s is %d', (image, value) => {
    expect(Object.is(decodeNumber(image), value)).toBe(true);
  });
});

describe('isNumberOutOfRange', () => {
  it.each([
    ['9007199254740991', false],
    ['-9007199254740991', false],
    ['9007199254740991.0', false],
    ['0009007199254740991', false],
    ['9007199254740991.5', true],
    ['9007199254740992', true],
    ['-9007199254740992', true],
    ['10000000000000000', true],
    ['999999999999999', false],
    ['0.0000000001', false],
  ])('%s: %s', (image, expected) => {
    expect(isNumberOutOfRange(image)).toBe(expected);
  });
});
