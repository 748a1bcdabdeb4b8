/**
 * `import --template`'s record and docs/importing.md's table of fields: the template holds the
 * interface's backlink record, in its CSV column order without `is_new` (written out by hand from
 * the interface's "CSV column order" line), and the page lists the same fields, in the same order,
 * with the template's values as its examples and the catalogue's types.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations } from '../../../../src/catalogue/operations.js';
import { importTemplate } from '../../../../src/server/import/template.js';

// The interface's backlink record, CSV column order (service-interface.md), without is_new.
const INTERFACE_ORDER =
  'source_url; target_url; anchor; redirect_url; source_title; target_title; image_url; image_alt; ip_address; lang; source_size; external_links_count; internal_links_count; response_code; page_score; domain_score; first_seen_at; last_seen_at; source_domain; is_nofollow; is_ugc; is_sponsored; is_form; is_frame; is_image; is_sitewide_main; is_lost'.split('; ');

const PAGE = readFileSync(new URL('../../../../docs/importing.md', import.meta.url), 'utf8');
/** The page's table rows: field, type cell, example cell. */
const rows = [...PAGE.matchAll(/^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|/gm)].map(([, field, type, example]) => ({ field: field!, type: type!.trim(), example: example!.trim() }));

const record = JSON.parse(importTemplate('ndjson')) as Record<string, unknown>;

describe('import --template', () => {
  it("holds every field the import reads, in the interface's CSV column order", () => {
    expect(Object.keys(record)).toEqual(INTERFACE_ORDER);
  });

  it('writes the same record as CSV: a header of the fields, then one line of cells', () => {
    const [header, line, end] = importTemplate('csv').split('\r\n');
    expect(header!.split(';')).toEqual(INTERFACE_ORDER);
    expect(line!.split(';')).toEqual(INTERFACE_ORDER.map((field) => String(record[field])));
    expect(end).toBe('');
  });
});

describe('docs/importing.md', () => {
  it("lists the template's fields in its order, each with the template's value as the example", () => {
    expect(rows.map((row) => row.field)).toEqual(INTERFACE_ORDER);
    for (const { field, example } of rows) expect(example, field).toBe(shown(field));
  });

  it("gives each field the catalogue's type", () => {
    const spec = operations.links.record as Record<string, { type: string }>;
    for (const { field, type } of rows) expect(type.split(/[ ,]/)[0], field).toBe(spec[field]!.type);
  });
});

/** How the page shows a template value: in backticks, or "(empty)". */
function shown(field: string): string {
  const value = record[field];
  return value === '' ? '(empty)' : `\`${String(value)}\``;
}
