/**
 * docs/importing.md and the table of export formats (src/server/import/formats.ts) in step: for
 * each format, the page's section (the heading that starts with the format's title) shows the
 * tool's header line in its first `text` block, and its table lists, per field of the record, the
 * kind and the columns of the rule that header gets, the value of a default, and every column any
 * other rule of the field reads (an older layout's). Its "Not read:" line names the header's
 * columns no rule reads, every other header it shows is read as the same format, every column of
 * the headers it shows is one the format knows (read, or listed in `others`: a reduced export is
 * found by them), and the table of required columns lists each format's `detect` columns.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFormat, EXPORT_FORMATS, formatsOfHeader, type Cells, type ExportFormat, type ExportFormatName, type FieldRule } from '../../../../src/server/import/formats.js';

const PAGE = readFileSync(new URL('../../../../docs/importing.md', import.meta.url), 'utf8');
const LINES = PAGE.split('\n');
const OPTIONS = { domainOf: (host: string) => host, seenAt: '2026-01-01T00:00:00' };
const NAMES = Object.keys(EXPORT_FORMATS) as ExportFormatName[];

/** The lines of the section whose heading (## to ####) starts with `title`, up to the next heading of its level or above. */
function section(title: string): string[] {
  const start = LINES.findIndex((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '').toLowerCase().startsWith(title.toLowerCase()));
  if (start === -1) throw new Error(`docs/importing.md has no heading starting with "${title}"`);
  const level = /^#+/.exec(LINES[start]!)![0].length;
  const end = LINES.findIndex((line, at) => at > start && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level);
  return LINES.slice(start + 1, end === -1 ? undefined : end);
}

/** The `text` code blocks of a section (the headers it shows), each as a header's column names (a title line of one cell above it dropped). */
function headers(lines: readonly string[]): string[][] {
  const found: string[][] = [];
  for (let at = 0; at < lines.length; at++) {
    if (lines[at] !== '```text') continue;
    const end = lines.indexOf('```', at + 1);
    const rows = lines.slice(at + 1, end).map(cellsOf);
    found.push(rows.length > 1 && rows[0]!.length === 1 ? rows[1]! : rows[0]!);
    at = end;
  }
  return found;
}

/** A header line's cells: commas between them, double quotes around them dropped (the headers shown hold neither inside a name). */
const cellsOf = (line: string) => line.split(',').map((cell) => cell.replace(/^"(.*)"$/, '$1'));

/** The backquoted names of a text. */
const quoted = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map(([, name]) => name!);

interface Row {
  readonly field: string;
  readonly kind: string;
  readonly columns: string[];
  /** The whole row, for what its last cell says. */
  readonly text: string;
}

/** The rows of the table `| field | how | from | type, rule or value |` in a section. */
function rows(lines: readonly string[]): Row[] {
  const head = lines.indexOf('| field | how | from | type, rule or value |');
  if (head === -1) throw new Error('no table | field | how | from | type, rule or value |');
  const table: Row[] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const [field, kind, from] = line.split('|').slice(1, 4).map((cell) => cell.trim());
    table.push({ field: field!, kind: kind!, columns: quoted(from!), text: line });
  }
  return table;
}

/** How the page shows a default's value. */
function shownValue(value: unknown): string {
  if (value === OPTIONS.seenAt) return '`--seen-at`';
  return value === '' ? 'empty' : `\`${String(value)}\``;
}

describe('docs/importing.md, the export formats', () => {
  it.each(NAMES)('%s: the header shown is found as the format, and the table lists each field as the header gets it', (name) => {
    const format = EXPORT_FORMATS[name] as ExportFormat<Record<string, unknown>>;
    const lines = section(format.title);
    const [header, ...others] = headers(lines);
    expect(header === undefined ? 'no text block with the header' : formatsOfHeader(header)).toEqual([name]);
    const compiled = compileFormat(format, header!, OPTIONS);
    if ('missing' in compiled) throw new Error(`the header shown lacks ${compiled.missing.join(', ')}`);

    const table = rows(lines);
    expect(table.map((row) => row.field)).toEqual(Object.keys(format.fields));
    for (const [at, report] of compiled.report.entries()) {
      const row = table[at]!;
      expect({ kind: row.kind, columns: row.columns }, row.text).toEqual({ kind: report.kind, columns: report.columns });
      const rules = format.fields[report.field] as readonly FieldRule<unknown>[];
      // The rule the header gets: the first whose columns are all in it (as compileFormat picks it).
      const applied = rules.find((rule) => rule.columns.every((column) => header!.some((name) => name.toLowerCase() === column.toLowerCase())))!;
      if (applied.kind === 'default') expect(row.text, `${report.field}: the default's value`).toContain(shownValue(applied.value({ seenAt: OPTIONS.seenAt } as Cells)));
      const named = new Set(quoted(row.text).map((column) => column.toLowerCase()));
      for (const column of rules.flatMap((rule) => rule.columns)) expect(named.has(column.toLowerCase()), `${report.field} names ${column}`).toBe(true);
    }

    const notRead = lines.find((line) => line.startsWith('Not read: '));
    expect(notRead === undefined ? [] : quoted(notRead)).toEqual(compiled.ignored);

    for (const other of others) {
      expect(formatsOfHeader(other), other.join(',')).toEqual([name]);
      expect(compileFormat(format, other, OPTIONS), other.join(',')).not.toHaveProperty('missing');
    }
    const read = new Set(Object.values(format.fields as Record<string, readonly FieldRule<unknown>[]>).flatMap((list) => list.flatMap((rule) => rule.columns)));
    for (const column of [header!, ...others].flat()) expect(read.has(column) || format.others.includes(column) || format.skip?.columns.includes(column), column).toBe(true);
  });

  it("lists each format's required columns and --format name", () => {
    const listed = new Map(
      [...PAGE.matchAll(/^\| ([^|`]+) \| `([a-z-]+)` \| (.+) \|$/gm)].map(([, title, name, columns]) => [name!, { title: title!.trim(), detect: quoted(columns!) }]),
    );
    for (const name of NAMES) expect(listed.get(name), name).toEqual({ title: EXPORT_FORMATS[name].title, detect: EXPORT_FORMATS[name].detect });
  });
});
