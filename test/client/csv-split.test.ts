/**
 * The client's CSV reader (`splitCsv`), which replaced Papa Parse in the client so that the
 * client bundle stays small: on every input Papa Parse reads without a quote error, it reads the
 * same rows (with Papa Parse's `{ delimiter: ';', skipEmptyLines: true }`, the options the client
 * used); where Papa Parse reports a quote error, it throws the same message at the same row.
 * Inputs use one kind of line ending throughout (CRLF, as the service writes, or LF), as Papa
 * Parse guesses one per input.
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { decodeCsv, splitCsv } from '../../src/client/decode.js';
import { FIXED_SEED, RUNS } from '../property/support.js';

/** What Papa Parse makes of `text`: its rows, or its first quote error as the client words it. */
function papa(text: string): string[][] | string {
  const parsed = Papa.parse<string[]>(text, { delimiter: ';', header: false, skipEmptyLines: true });
  const fatal = parsed.errors.find((e) => e.type === 'Quotes');
  return fatal ? `CSV ${fatal.message.toLowerCase()} at row ${(fatal.row ?? 0) + 1}` : parsed.data;
}

function ours(text: string): string[][] | string {
  try {
    return splitCsv(text);
  } catch (error) {
    return (error as Error).message;
  }
}

describe('splitCsv', () => {
  it.each([
    ['a header and rows, CRLF', 'a;b\r\n1;2\r\n3;4\r\n', [['a', 'b'], ['1', '2'], ['3', '4']]],
    ['LF, no final line break', 'a;b\n1;2', [['a', 'b'], ['1', '2']]],
    ['empty cells', 'a;b;c\r\n;;\r\n', [['a', 'b', 'c'], ['', '', '']]],
    ['empty lines skipped', 'a\r\n\r\nb\r\n\r\n', [['a'], ['b']]],
    ['quoted cells: ; line breaks and doubled quotes', 'a;b\r\n"x;1";"say ""hi"""\r\n"two\r\nlines";z\r\n', [['a', 'b'], ['x;1', 'say "hi"'], ['two\r\nlines', 'z']]],
    ['spaces after a closing quote', '"a"  ;"b"\t\r\n', [['a', 'b']]],
    ['a quote inside an unquoted cell is text', 'it"s;b\r\n', [['it"s', 'b']]],
    ['a quoted empty cell', '"";x\r\n', [['', 'x']]],
    ['nothing', '', []],
  ])('%s', (_, text, rows) => {
    expect(splitCsv(text)).toEqual(rows);
    expect(papa(text)).toEqual(rows);
  });

  it.each([
    ['a quoted cell that never closes', 'a;b\r\n1;"open\r\n2;3\r\n', 'CSV quoted field unterminated at row 2'],
    ['text after a closing quote', 'a;b\r\n\r\n"x"y;2\r\n', 'CSV trailing quote on quoted field is malformed at row 3'],
    ['spaces after the last closing quote of the input', '"a"  ', 'CSV trailing quote on quoted field is malformed at row 1'],
  ])('%s', (_, text, message) => {
    expect(() => splitCsv(text)).toThrow(message);
    expect(papa(text)).toBe(message);
  });

  it('reads what Papa Parse reads, and fails where it fails (CRLF and LF inputs)', () => {
    // Cells as written, quoted cells (with doubled quotes and line breaks), and malformed quoted
    // cells. Papa Parse guesses the line ending after pairing up every quote of the input, so a
    // quote that is text, or a quoted cell that is malformed, can make it take CRLF input for LF
    // (and keep the CR in cells); those cells go into LF inputs only.
    const cells = (lf: boolean) =>
      fc.oneof(
        fc.stringMatching(lf ? /^[a; "\t]{0,6}$/ : /^[a; \t]{0,6}$/).filter((s) => !s.startsWith('"')),
        fc.stringMatching(/^[a; "\t\n]{0,6}$/).map((s) => `"${s.replace(/"/g, '""')}"`),
        ...(lf ? [fc.stringMatching(/^"[a; "\t\n]{0,6}$/)] : []),
      );
    const input = fc.boolean().chain((crlf) =>
      fc.record({
        crlf: fc.constant(crlf),
        rows: fc.array(fc.array(cells(!crlf), { minLength: 1, maxLength: 4 }), { maxLength: 5 }),
        end: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(input, ({ crlf, rows, end }) => {
        const newline = crlf ? '\r\n' : '\n';
        const text = rows.map((row) => row.join(';').replace(/\n/g, newline)).join(newline) + (end && rows.length > 0 ? newline : '');
        expect(ours(text)).toEqual(papa(text));
      }),
      { numRuns: RUNS, seed: FIXED_SEED },
    );
  });

  it('decodeCsv reports a quote error as a shape problem', () => {
    expect(() => decodeCsv('ref-ips', 'ip_address;country\r\n"1.2.3.4;DE\r\n')).toThrow('CSV quoted field unterminated at row 2');
  });
});
