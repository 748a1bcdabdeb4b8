/**
 * One backlink record to start an export from (`backlink-query import --template ndjson|csv`):
 * every field the import reads, in the record's CSV column order, with a plausible value of its
 * type. The file it prints imports as it is, one link. docs/importing.md lists the same fields.
 *
 * @module
 */
import { toCsv } from '../../catalogue/csv.js';
import type { LinkInput } from '../store/inputs.js';
import { IMPORT_FIELDS, type ImportFormat } from './read-records.js';

/** The example record: one followed text link from a blog post to example.com's pricing page. */
const EXAMPLE: LinkInput = {
  source_url: 'https://blog.example.org/2026/06/best-seo-tools',
  target_url: 'https://www.example.com/pricing',
  anchor: 'example pricing',
  redirect_url: '',
  source_title: 'The best SEO tools of 2026',
  target_title: 'Pricing - Example',
  image_url: '',
  image_alt: '',
  ip_address: '203.0.113.7',
  lang: 'en',
  source_size: 48210,
  external_links_count: 24,
  internal_links_count: 131,
  response_code: 200,
  page_score: 31,
  domain_score: 54,
  first_seen_at: '2026-01-14T08:30:00',
  last_seen_at: '2026-06-12T22:05:41',
  source_domain: 'blog.example.org',
  is_nofollow: false,
  is_ugc: false,
  is_sponsored: false,
  is_form: false,
  is_frame: false,
  is_image: false,
  is_sitewide_main: false,
  is_lost: false,
};

/**
 * A one-record file in `format`, ready to edit and import.
 *
 * @example
 * ```ts
 * process.stdout.write(importTemplate('csv')); // a header line, then one record, ';' between cells
 * ```
 */
export function importTemplate(format: ImportFormat): string {
  const record = Object.fromEntries(IMPORT_FIELDS.map((field) => [field, EXAMPLE[field]]));
  return format === 'csv' ? toCsv([record], IMPORT_FIELDS) : `${JSON.stringify(record)}\n`;
}
