/**
 * The one function `clickhouse-literals` writes values with. Expectations by hand from ClickHouse's
 * string literal syntax (backslash escapes: \\ \' \0 \b \f \n \r \t \xHH); the injection suite
 * proves the same function on a real server.
 */
import { describe, expect, it } from 'vitest';
import { clickhouseLiteral } from '../../../src/sql/dialects/clickhouse.js';

describe('clickhouseLiteral', () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", String.raw`'it\'s'`],
    ['a\\b', String.raw`'a\\b'`],
    ["\\'", String.raw`'\\\''`],
    ['%_', "'%_'"],
    ['a\u0000b', String.raw`'a\0b'`],
    ['line\nbreak\r\ttab', String.raw`'line\nbreak\r\ttab'`],
    ['\b\f', String.raw`'\b\f'`],
    ['\u0001\u001f\u007f', String.raw`'\x01\x1f\x7f'`],
    ['é😀 ', "'é😀 '"],
    ['"double"', `'"double"'`],
    ["x' OR '1'='1'; --", String.raw`'x\' OR \'1\'=\'1\'; --'`],
  ])('writes the string %j as %s', (value, expected) => {
    expect(clickhouseLiteral(value)).toBe(expected);
  });

  it.each([
    [0, '0'],
    [-0, '0'],
    [50, '50'],
    [-1, '(-1)'],
    [0.1, '0.1'],
    [-2.5, '(-2.5)'],
    [1e21, '1e+21'],
        [-1.7976931348623157e308, '(-1.7976931348623157e+308)'],
    [2.2250738585072014e-308, '2.2250738585072014e-308'],
    // Subnormal: ClickHouse 18.16 cannot parse 5e-324; 5e-324 = 2^-1074 = 2^-474 * 2^-600.
    [5e-324, '(2.0501330894674953e-143 * 2.409919865102884e-181)'],
    [-5e-324, '((-2.0501330894674953e-143) * 2.409919865102884e-181)'],
  ])('writes the number %s as %s', (value, expected) => {
    expect(clickhouseLiteral(value)).toBe(expected);
  });

  it('writes booleans as 1 and 0', () => {
    expect(clickhouseLiteral(true)).toBe('1');
    expect(clickhouseLiteral(false)).toBe('0');
  });

  it('refuses what is not a finite number, a string or a boolean', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, [1], 1n]) expect(() => clickhouseLiteral(value)).toThrow(TypeError);
  });
});
