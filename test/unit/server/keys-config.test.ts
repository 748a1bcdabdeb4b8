/**
 * A key configuration that cannot be used is user input: a KeyConfigError with a stable code and
 * the position of the key at fault, whose message `serve` prints after "Invalid key configuration:".
 */
import { describe, expect, it } from 'vitest';
import { isKeyConfigError, parseKeys, type KeyConfigError } from '../../../src/server/keys-config.js';

const failure = (text: string): KeyConfigError => {
  try {
    parseKeys(text);
  } catch (error) {
    if (isKeyConfigError(error)) return error;
    throw error;
  }
  throw new Error(`parseKeys accepted ${text}`);
};

describe('a key configuration that cannot be used', () => {
  it.each([
    ['a:aaaaaaaa, b:short', 'invalid_key', 2, 'key 2: key must be at least 8 characters with no white space.'],
    ['a:aaaaaaaa:-1', 'invalid_units', 1, 'key 1: units must be a non-negative integer.'],
    ['a:aaaaaaaa, b:bbbbbbbb, c:cccccccc:x', 'invalid_units', 3, 'key 3: units must be a non-negative integer.'],
    [':aaaaaaaa', 'invalid_id', 1, 'key 1: id is missing.'],
    ['[{"id":"a","key":"aaaaaaaa"},{"key":"bbbbbbbb"}]', 'invalid_id', 2, 'key 2: id is missing.'],
    ['[{"id":"a","key":"aaaaaaaa"}, null]', 'not_an_object', 2, 'key 2: must be an object with an id and a key.'],
    ['{"keys":1}', 'not_a_list', undefined, 'The key configuration must be an array of keys or { "keys": [...] }.'],
  ] as const)('%s: %s at key %s', (text, code, key, message) => {
    const error = failure(text);
    expect([error.code, error.key, error.message, error.name]).toEqual([code, key, message, 'KeyConfigError']);
  });

  it('is one for text that starts as JSON and does not parse, with the parser error as its cause', () => {
    const error = failure('[{"id":"a",}]');
    expect([error.code, error.key]).toEqual(['invalid_json', undefined]);
    expect(error.message).toMatch(/^Not valid JSON: /);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});
