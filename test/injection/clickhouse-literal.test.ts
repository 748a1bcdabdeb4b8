/**
 * `clickhouseLiteral`, the one function the `clickhouse-literals` dialect writes values into SQL
 * text with, proven on the real server: every generated string comes back byte for byte (its
 * UTF-8, read with `hex()`), and every generated double comes back with the same bits (read with
 * `hex(reinterpretAsString())`), subnormals and extremes included. Expectations come from Node's
 * own UTF-8 encoder and IEEE 754 bytes, not from the function under test.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickhouseLiteral } from '../../src/sql/dialects/clickhouse.js';
import { openEngine, type EngineSession } from '../helpers/engines.js';
import { seeded } from '../property/support.js';

/** Values per query and queries per property: 2,000 values each. */
const BATCH = 100;
const RUNS = 20;

let session: EngineSession;
beforeAll(async () => {
  session = await openEngine('clickhouse');
});
afterAll(() => session?.close());

/** One SELECT of `expression(literal)` per value; the answers in order. */
async function selectEach(values: readonly unknown[], expression: (literal: string) => string): Promise<string[]> {
  const columns = values.map((value, i) => `${expression(clickhouseLiteral(value))} AS c${i}`);
  const [row] = await session.query(`SELECT ${columns.join(', ')}`, []);
  return values.map((_, i) => String(row![`c${i}`]));
}

/** The little-endian bytes of a double, as ClickHouse's `reinterpretAsString` keeps them: trailing zero bytes cut. */
function doubleHex(value: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  let end = 8;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.subarray(0, end).toString('hex').toUpperCase();
}

describe('clickhouseLiteral on the real server', () => {
  it(`writes ${BATCH * RUNS} generated strings that come back byte for byte`, async () => {
    let checked = 0;
    // 'binary': any code point (no lone surrogates: the dialect refuses those before writing).
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: fc.constantFrom("'", '\\', '\0', '\n', '\r', '\t', '\x7f', '\x1b', '"', '%', '_', '?', '{', '}', 'é', '😀'), maxLength: 12 }));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: BATCH, maxLength: BATCH }), async (values) => {
        const got = await selectEach(values, (literal) => `hex(${literal})`);
        expect(got).toEqual(values.map((value) => Buffer.from(value, 'utf8').toString('hex').toUpperCase()));
        checked += values.length;
      }),
      seeded(RUNS),
    );
    expect(checked).toBe(BATCH * RUNS);
  });

  it(`writes ${BATCH * RUNS} generated doubles that come back with the same bits (-0 as 0)`, async () => {
    let checked = 0;
    const double = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -2.2250738585072014e-308, max: 2.2250738585072014e-308 }), // subnormals
      fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(double, { minLength: BATCH, maxLength: BATCH }), async (values) => {
        const got = await selectEach(values, (literal) => `hex(reinterpretAsString(toFloat64(${literal})))`);
        expect(got).toEqual(values.map((value) => doubleHex(value === 0 ? 0 : value)));
        checked += values.length;
      }),
      seeded(RUNS),
    );
    expect(checked).toBe(BATCH * RUNS);
  });

  it('writes the extremes and the boundaries exactly', async () => {
    const values = [Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 2.2250738585072014e-308, 2.225073858507201e-308, 0.1, 1e21, 1e-7, 2 ** 53 + 2];
    expect(await selectEach(values, (literal) => `hex(reinterpretAsString(toFloat64(${literal})))`)).toEqual(values.map(doubleHex));
  });
});
