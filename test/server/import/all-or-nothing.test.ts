/**
 * One `import` command is one load (issue 50): a file that cannot be read stops the whole command
 * before anything is written, whichever its place among the files, and each such file is named
 * with what is wrong; `--max-rejects N` stops the load, importing nothing, when more than N lines
 * are rejected. On the embedded store (the default) and SQLite alone, both all-or-nothing stores.
 * Every expectation is written by hand from docs/importing.md and the files below.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/helpers/run-cli.js';
import { importFiles, link, links, ndjson } from './import-helpers.js';

const { file, newDb } = importFiles('bq-import-all-or-nothing-');

/** Two good links of acme.test, one file. */
const good = () => file('good.ndjson', ndjson([link('one.test', 'a'), link('two.test', 'b')]));
/** A CSV file with no header line: empty. */
const empty = () => file('zero.csv', '');
/** A CSV header that names no format: `target_urll` for `target_url`. */
const misnamed = () => file('bad.csv', `source_url;target_urll\r\nhttps://one.test/post;https://acme.test/\r\n`);

describe('import: a file that cannot be read stops the whole load before anything is written', () => {
  it('after a good file: the good file is not written either', async () => {
    const db = newDb();
    const run = await runCli(['import', good(), empty(), '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/zero\.csv: CSV file has no header line$/m);
    expect(run.stderr).toMatch(/^Nothing was imported: 1 of 2 files cannot be read\.$/m);
    expect(run.stdout).toBe('');
    expect(await links(db, ['source_url'])).toEqual([]);
  });

  it('before a good file, the same', async () => {
    const db = newDb();
    const run = await runCli(['import', empty(), good(), '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Nothing was imported: 1 of 2 files cannot be read\.$/m);
    expect(await links(db, ['source_url'])).toEqual([]);
  });

  it('names every file that cannot be read, each with its reason', async () => {
    const db = newDb();
    const run = await runCli(['import', empty(), good(), misnamed(), '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/zero\.csv: CSV file has no header line$/m);
    expect(run.stderr).toMatch(/bad\.csv: CSV header \(line 1\) fits no format; the closest is the service's own record, whose columns differ:\n  "target_urll" is not a column of it; did you mean target_url\?$/m);
    expect(run.stderr).toMatch(/^Nothing was imported: 2 of 3 files cannot be read \(each named above\)\.$/m);
    expect(await links(db, ['source_url'])).toEqual([]);
  });

  it('names a file that is missing, and a directory, as such', async () => {
    const db = newDb();
    const run = await runCli(['import', good(), `${good()}.missing.ndjson`, '--format', 'ndjson', '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/good\.ndjson\.missing\.ndjson: no such file$/m);
    expect(run.stderr).toMatch(/^Nothing was imported: 1 of 2 files cannot be read\.$/m);
    const folder = await runCli(['import', good(), newDb().replace(/[^/]+$/, ''), '--format', 'ndjson', '--db', db]);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/: a directory, not a file$/m);
    expect(await links(db, ['source_url'])).toEqual([]);
  });

  it('on SQLite alone as well', async () => {
    const db = newDb();
    const run = await runCli(['import', good(), empty(), '--database-url', `sqlite:${db}`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Nothing was imported: 1 of 2 files cannot be read\.$/m);
    const imported = await runCli(['import', good(), '--database-url', `sqlite:${db}`]);
    // The database was left as it was (empty): the same two links import now, each once.
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ imported: 2, rejected: 0 });
  });
});

describe('import --max-rejects N', () => {
  /** Three lines: a good link, a line that is not JSON, a link whose is_nofollow is not a boolean (lines 2 and 3 rejected). */
  const twoBad = () => file('two-bad.ndjson', `${JSON.stringify(link('one.test', 'a'))}\nnot json\n${JSON.stringify({ ...link('two.test', 'b'), is_nofollow: 'maybe' })}\n`);

  it('with more lines rejected than N: stops, and nothing is written', async () => {
    const db = newDb();
    const run = await runCli(['import', good(), twoBad(), '--max-rejects', '1', '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^More than 1 rejected line \(--max-rejects 1\): nothing of this import was written; .* is as it was before it\.$/m);
    expect(run.stdout).toBe('');
    expect(await links(db, ['source_url'])).toEqual([]);
  });

  it('with exactly N rejected: the rest is imported, and the exit status is 1 for the rejected lines', async () => {
    const db = newDb();
    const run = await runCli(['import', good(), twoBad(), '--max-rejects', '2', '--db', db]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ imported: 3, rejected: 2 });
    expect(await links(db, ['source_url'])).toEqual([{ source_url: 'https://one.test/post' }, { source_url: 'https://two.test/post' }]);
  });

  it('takes 0 (no rejected line allowed) and refuses a negative number or a word, as a usage error', async () => {
    const db = newDb();
    const stopped = await runCli(['import', twoBad(), '--max-rejects', '0', '--db', db]);
    expect(stopped.code).toBe(1);
    expect(await links(db, ['source_url'])).toEqual([]);
    for (const value of ['-1', 'many']) {
      const run = await runCli(['import', good(), '--max-rejects', value, '--db', newDb()]);
      expect(run.code, value).toBe(2);
      expect(run.stderr).toMatch(/--max-rejects/);
    }
  });
});

describe('import: a file that is not text says so, and nothing is imported', () => {
  const bytes = (name: string, data: number[]) => file(name, Buffer.from(data) as unknown as string);
  it.each([
    ['a PNG image', 'links.csv', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'not a text file: it starts with the bytes of a PNG image'],
    ['an .xlsx (a ZIP archive)', 'export.csv', [0x50, 0x4b, 0x03, 0x04, 20, 0, 6, 0], 'not a text file: it starts with the bytes of a ZIP archive (an Excel .xlsx is one: save the sheet as CSV)'],
    ['a gzip file', 'links.ndjson', [0x1f, 0x8b, 8, 0, 0, 0, 0, 0], 'not a text file: it starts with the bytes of a gzip file (unpack it first)'],
    ['bytes with a NUL', 'links.csv', [0x73, 0x6f, 0x75, 0x72, 0x63, 0x65, 0x00, 0x5f], 'not a text file: it holds NUL bytes, which no text file has'],
    ['bytes that are not UTF-8', 'links.csv', [0x73, 0x6f, 0xe9, 0x75, 0x72, 0x63, 0x65, 0x0a], 'not a text file: its first bytes are not UTF-8 (nor UTF-16 with a byte order mark): save it as UTF-8'],
  ])('%s', async (_what, name, data, message) => {
    const db = newDb();
    const run = await runCli(['import', good(), bytes(name, data), '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${name}: ${message}\n`);
    expect(run.stderr).toMatch(/^Nothing was imported: 1 of 2 files cannot be read\.$/m);
    expect(await links(db, ['source_url'])).toEqual([]);
  });
});
