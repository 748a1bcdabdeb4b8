/**
 * Mutants of loading: the import formats (`server/import/formats.ts`), the record reader
 * (`server/import/read-records.ts`, `server/import/csv-tokenizer.ts`) and the commands that load
 * (`cli/server/import.ts`, `cli/server/database.ts`).
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

/** Every column of every format, in-process, records written by hand. */
const COLUMNS = ['test/server/import/columns.test.ts'];
/** The reader: NDJSON and the service's CSV, line numbers, chunks, batches, headers. */
const READER = ['test/server/import/read-records.test.ts'];
/** import --format as a process: a file's syntax named, a header of two formats, a broken line's number. */
const FORMAT_OPTION = ['test/server/import/format-option.test.ts'];
/** The time of an export without dates as a process: --seen-at, else the file's modification time. */
const SEEN_AT = ['test/server/import/seen-at.test.ts'];
/** import as a process: a file that fails, --batch, the referring domains' derived records. */
const BATCH = ['test/server/import/batch.test.ts'];
/** Each export reduced to a few columns as a process: the records read back, the report's absent fields, header messages. */
const REDUCED = ['test/server/import/reduced-exports.test.ts'];
/** --memory-limit's sizes, in-process. */
const MEMORY = ['test/cli/memory-limit.test.ts'];

const FORMATS = 'src/server/import/formats.ts';
const READ = 'src/server/import/read-records.ts';
const CLI = 'src/cli/server/import.ts';
const DERIVED = 'src/server/import/derived-domains.ts';

/** The import tests run in the `all` project only (vitest.config.ts). */
const entries: readonly Omit<Mutant, 'area' | 'project'>[] = [
  // ---- Semrush: each column to its field
  { name: 'semrush-title-from-anchor', file: FORMATS, find: "source_title: [text('Source title'), NO_TEXT],", replace: "source_title: [text('Anchor'), NO_TEXT],", tests: COLUMNS },
  {
    name: 'semrush-external-internal-swapped',
    file: FORMATS,
    find: "external_links_count: [count('External links'), NO_COUNT],\n    internal_links_count: [count('Internal links'), NO_COUNT],",
    replace: "external_links_count: [count('Internal links'), NO_COUNT],\n    internal_links_count: [count('External links'), NO_COUNT],",
    tests: COLUMNS,
  },
  { name: 'semrush-page-ascore-not-read', file: FORMATS, find: "page_score: [score('Page ascore'), score('Page score'), NO_COUNT],", replace: "page_score: [score('Page score'), NO_COUNT],", tests: COLUMNS },
  { name: 'semrush-old-page-score-not-read', file: FORMATS, find: "page_score: [score('Page ascore'), score('Page score'), NO_COUNT],", replace: "page_score: [score('Page ascore'), NO_COUNT],", tests: COLUMNS },
  {
    name: 'semrush-last-seen-from-first-seen',
    file: FORMATS,
    find: "last_seen_at: dates('Last seen', 'First seen'),\n    source_domain: [sourceDomain('Source url')],",
    replace: "last_seen_at: dates('First seen', 'Last seen'),\n    source_domain: [sourceDomain('Source url')],",
    tests: COLUMNS,
  },
  { name: 'semrush-ugc-from-sponsored', file: FORMATS, find: "is_ugc: [bool('Ugc'), NO_FLAG],", replace: "is_ugc: [bool('Sponsored'), NO_FLAG],", tests: COLUMNS },
  {
    name: 'semrush-form-frame-swapped',
    file: FORMATS,
    find: "is_form: [bool('Form'), NO_FLAG],\n    is_frame: [bool('Frame'), NO_FLAG],",
    replace: "is_form: [bool('Frame'), NO_FLAG],\n    is_frame: [bool('Form'), NO_FLAG],",
    tests: COLUMNS,
  },
  { name: 'semrush-lost-link-not-read', file: FORMATS, find: "is_lost: [bool('Lost link'), NO_FLAG],", replace: 'is_lost: [NO_FLAG],', tests: COLUMNS },
  { name: 'semrush-sitewide-as-main', file: FORMATS, find: "is_sitewide_main: [fixed(false, \"not in this export (Sitewide", replace: "is_sitewide_main: [bool('Sitewide'), fixed(false, \"not in this export (Sitewide", tests: COLUMNS },
  { name: 'image-link-keeps-anchor', file: FORMATS, find: "(c) => (isImage(c) ? '' : c.text(anchor))", replace: '(c) => c.text(anchor)', tests: COLUMNS },
  // ---- Ahrefs
  { name: 'ahrefs-domain-rating-not-read', file: FORMATS, find: "domain_score: [score('Domain rating'), NO_COUNT],", replace: "domain_score: [score('UR'), NO_COUNT],", tests: COLUMNS },
  { name: 'ahrefs-redirect-chain-last-url', file: FORMATS, find: ".split(/[\\s,|]+/)[0]!;", replace: '.split(/[\\s,|]+/).at(-1)!;', tests: COLUMNS },
  { name: 'ahrefs-language-list-kept', file: FORMATS, find: "(c) => c.text('Language').split(',')[0]!.trim()", replace: "(c) => c.text('Language').trim()", tests: COLUMNS },
  { name: 'ahrefs-empty-http-code-as-0', file: FORMATS, find: "c.count('Referring page HTTP code') || 200", replace: "c.count('Referring page HTTP code')", tests: COLUMNS },
  { name: 'ahrefs-lost-any-text', file: FORMATS, find: "c.text('Lost') !== '' && c.date('Lost') !== ''", replace: "c.text('Lost') !== ''", tests: COLUMNS },
  { name: 'ahrefs-type-case-sensitive', file: FORMATS, find: "const ahrefsType = (c: Cells) => c.text('Type').toLowerCase();", replace: "const ahrefsType = (c: Cells) => c.text('Type');", tests: COLUMNS },
  { name: 'ahrefs-ugc-not-read', file: FORMATS, find: "is_ugc: [bool('UGC'), NO_FLAG],", replace: 'is_ugc: [NO_FLAG],', tests: COLUMNS },
  // ---- Majestic
  { name: 'majestic-first-seen-from-crawl', file: FORMATS, find: "first_seen_at: dates('Source First Found Date', 'Source Crawl Date'),", replace: "first_seen_at: dates('Source Crawl Date', 'Source First Found Date'),", tests: COLUMNS },
  { name: 'majestic-false-sets-flag', file: FORMATS, find: "new Set(['', '0', 'false'])", replace: "new Set(['', '0'])", tests: COLUMNS },
  { name: 'majestic-flag-case-sensitive', file: FORMATS, find: 'return !FALSE_FLAGS.has(this.text(column).trim().toLowerCase());', replace: 'return !FALSE_FLAGS.has(this.text(column).trim());', tests: COLUMNS },
  { name: 'majestic-old-crawl-not-lost', file: FORMATS, find: "(c) => c.flag('FlagOldCrawl')), NO_FLAG],", replace: '() => false), NO_FLAG],', tests: COLUMNS },
  { name: 'majestic-frame-not-read', file: FORMATS, find: "is_frame: [mapped('FlagFrame', (c) => c.flag('FlagFrame'), 'set by any value but empty, 0 or false'), NO_FLAG],", replace: 'is_frame: [NO_FLAG],', tests: COLUMNS },
  // ---- Screaming Frog
  { name: 'frog-rel-nofollow-ignored', file: FORMATS, find: "(c) => !c.bool('Follow') || relHas(c, 'nofollow')),", replace: "(c) => !c.bool('Follow')),", tests: COLUMNS },
  { name: 'frog-alt-text-not-image', file: FORMATS, find: "(c) => c.text('Alt Text') !== ''), NO_FLAG],", replace: '() => false), NO_FLAG],', tests: COLUMNS },
  { name: 'frog-type-case-sensitive', file: FORMATS, find: "SCREAMING_FROG_LINKS.has(c.text('Type').toLowerCase())", replace: "SCREAMING_FROG_LINKS.has(c.text('Type'))", tests: COLUMNS },
  // ---- domains files
  { name: 'domains-ip-from-country', file: FORMATS, find: "ip_address: [text('ip_address'), fixed('', 'not in this file')],", replace: "ip_address: [text('country'), fixed('', 'not in this file')],", tests: COLUMNS },
  { name: 'domains-score-101', file: FORMATS, find: 'if (WHOLE.test(value) && number <= 100) return number;', replace: 'if (WHOLE.test(value) && number <= 101) return number;', tests: COLUMNS },
  { name: 'domains-ndjson-score-101', file: READ, find: '(score as number) <= 100)', replace: '(score as number) <= 101)', tests: COLUMNS },
  { name: 'domains-unknown-column-read', file: READ, find: 'if (format.strict && compiled.ignored.length > 0) {', replace: 'if (false) {', tests: COLUMNS },
  // ---- the cells of the exports: flags, dates, numbers, scores
  { name: 'bool-yes-is-true', file: FORMATS, find: "if (value === 'true' || value === '1') return true;", replace: "if (value === 'true' || value === '1' || value === 'yes') return true;", tests: COLUMNS },
  { name: 'bool-no-is-false', file: FORMATS, find: "if (value !== 'false' && value !== '0') this.problem", replace: "if (value !== 'false' && value !== '0' && value !== 'no') this.problem", tests: COLUMNS },
  { name: 'bool-empty-is-false', file: FORMATS, find: "if (value !== 'false' && value !== '0') this.problem", replace: "if (value !== 'false' && value !== '0' && value !== '') this.problem", tests: COLUMNS },
  { name: 'bool-1-not-true', file: FORMATS, find: "if (value === 'true' || value === '1') return true;", replace: "if (value === 'true') return true;", tests: COLUMNS },
  { name: 'bool-0-refused', file: FORMATS, find: "if (value !== 'false' && value !== '0') this.problem", replace: "if (value !== 'false') this.problem", tests: COLUMNS },
  { name: 'bool-case-sensitive', file: FORMATS, find: "const value = this.text(column).trim().toLowerCase();\n    if (value === 'true'", replace: "const value = this.text(column).trim();\n    if (value === 'true'", tests: COLUMNS },
  { name: 'date-time-dropped', file: FORMATS, find: "`${match[1]}T${match[2] ?? '00:00:00'}`", replace: '`${match[1]}T00:00:00`', tests: COLUMNS },
  { name: 'date-t-separator-refused', file: FORMATS, find: 'const DATE = /^(\\d{4}-\\d{2}-\\d{2})(?:[ T](\\d{2}:\\d{2}:\\d{2}))?$/;', replace: 'const DATE = /^(\\d{4}-\\d{2}-\\d{2})(?: (\\d{2}:\\d{2}:\\d{2}))?$/;', tests: COLUMNS },
  { name: 'date-zone-accepted', file: FORMATS, find: 'const DATE = /^(\\d{4}-\\d{2}-\\d{2})(?:[ T](\\d{2}:\\d{2}:\\d{2}))?$/;', replace: 'const DATE = /^(\\d{4}-\\d{2}-\\d{2})(?:[ T](\\d{2}:\\d{2}:\\d{2}))?(?:Z|[+-]\\d{2}:\\d{2})?$/;', tests: COLUMNS },
  { name: 'date-minutes-only-accepted', file: FORMATS, find: 'const DATE = /^(\\d{4}-\\d{2}-\\d{2})(?:[ T](\\d{2}:\\d{2}:\\d{2}))?$/;', replace: 'const DATE = /^(\\d{4}-\\d{2}-\\d{2})(?:[ T](\\d{2}:\\d{2}(?::\\d{2})?))?$/;', tests: COLUMNS },
  { name: 'date-no-such-day-accepted', file: FORMATS, find: 'if (!match || !isTimestampLiteral(stamp)) {', replace: 'if (!match) {', tests: COLUMNS },
  { name: 'date-empty-is-value', file: FORMATS, find: "const stamp = match ? `${match[1]}T${match[2] ?? '00:00:00'}` : '';", replace: "if (value === '') return '1970-01-01T00:00:00';\n    const stamp = match ? `${match[1]}T${match[2] ?? '00:00:00'}` : '';", tests: COLUMNS },
  { name: 'count-empty-refused', file: FORMATS, find: "const value = this.text(column).trim();\n    if (value === '') return 0;\n    const number = Number(value);", replace: 'const value = this.text(column).trim();\n    const number = Number(value);', tests: COLUMNS },
  { name: 'count-negative-accepted', file: FORMATS, find: 'const WHOLE = /^\\d+$/;', replace: 'const WHOLE = /^-?\\d+$/;', tests: COLUMNS },
  { name: 'score-floored', file: FORMATS, find: 'const number = Math.round(Number(value));', replace: 'const number = Math.floor(Number(value));', tests: COLUMNS },
  { name: 'score-above-100-accepted', file: FORMATS, find: 'if (!DECIMAL.test(value) || number > 100) {', replace: 'if (!DECIMAL.test(value) || number > 101) {', tests: COLUMNS },
  // ---- headers
  { name: 'header-spaces-not-ignored', file: FORMATS, find: 'const present = [...new Set(names.map((name) => name.trim().toLowerCase()))];', replace: 'const present = [...new Set(names.map((name) => name.toLowerCase()))];', tests: COLUMNS },
  { name: 'header-case-sensitive', file: FORMATS, find: 'const key = name.trim().toLowerCase();', replace: 'const key = name.trim();', tests: COLUMNS },
  // Only a file named with --format reaches its format without the URL columns (the reader's test of that).
  { name: 'export-missing-column-accepted', file: FORMATS, find: 'if (missing.size > 0) return { missing: [...missing] };', replace: '', tests: READER },
  { name: 'service-duplicate-column-accepted', file: READ, find: 'const duplicate = names.filter((_, index) => lower.indexOf(lower[index]!) !== index).map((name) => shown(name.trim()));', replace: 'const duplicate: string[] = [];', tests: READER },
  { name: 'title-line-not-skipped', file: READ, find: 'if (forced === undefined && title) return void (this.titleLine = names[0]);', replace: '', tests: COLUMNS },
  // ---- rows: short, long, the service's cells
  { name: 'export-short-row-accepted', file: READ, find: "else if (count !== this.width) this.reject(line, `expected ${this.width} cells, found ${count}`);", replace: '', tests: COLUMNS },
  { name: 'export-long-row-accepted', file: READ, find: "if (count > this.width) return this.reject(line, `expected ${this.width} cells, found ${count}`);", replace: '', tests: COLUMNS },
  { name: 'service-short-row-accepted', file: READ, find: "if (count !== this.width) return this.reject(line, `expected ${this.width} cells, found ${count}`);", replace: "if (count > this.width) return this.reject(line, `expected ${this.width} cells, found ${count}`);", tests: READER },
  { name: 'service-bool-any-case', file: READ, find: "csv: (text) => (text === 'true' ? true : text === 'false' ? false : undefined),", replace: "csv: (text) => (text.toLowerCase() === 'true' ? true : text.toLowerCase() === 'false' ? false : undefined),", tests: READER },
  { name: 'service-bool-1-0', file: READ, find: "csv: (text) => (text === 'true' ? true : text === 'false' ? false : undefined),", replace: "csv: (text) => (text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : undefined),", tests: COLUMNS },
  { name: 'service-empty-number-as-0', file: READ, find: 'if (!DIGITS.test(text)) return undefined;', replace: "if (text === '') return 0;\n      if (!DIGITS.test(text)) return undefined;", tests: READER },
  { name: 'ndjson-null-as-string', file: READ, find: "string: { json: (value) => typeof value === 'string',", replace: "string: { json: (value) => value === null || typeof value === 'string',", tests: COLUMNS },
  { name: 'ndjson-missing-field-accepted', file: READ, find: 'if (REQUIRED.has(field.name)) (missing ??= []).push(field.name);', replace: 'if (false) (missing ??= []).push(field.name);', tests: READER },
  { name: 'ndjson-unknown-field-accepted', file: READ, find: 'if (unknownKeys !== undefined) problems.push(listed(\'unknown\', unknownKeys));', replace: '', tests: READER },
  // ---- issue 50: only the URL columns required, the others left unknown and reported; finding the format; messages
  { name: 'export-absent-column-refused', file: FORMATS, find: "is_nofollow: [bool('Nofollow'), NO_FLAG],\n    is_ugc: [bool('Ugc'), NO_FLAG],", replace: "is_nofollow: [bool('Nofollow')],\n    is_ugc: [bool('Ugc'), NO_FLAG],", tests: COLUMNS },
  { name: 'absent-date-not-the-other', file: FORMATS, find: "[date(column), derived([other], `${column} is not in this file: ${other}`, (c) => c.date(other)), NO_DATE]", replace: '[date(column), NO_DATE]', tests: COLUMNS },
  { name: 'frog-without-type-skips-all', file: FORMATS, find: 'const skips = format.skip && format.skip.columns.every(has) ? format.skip.why : undefined;', replace: 'const skips = format.skip?.why;', tests: COLUMNS },
  { name: 'detect-tie-not-broken', file: FORMATS, find: '  return fitting.filter((name) => known(name) === most);', replace: '  return fitting;', tests: [...READER, ...COLUMNS] },
  { name: 'closest-needs-an-exact-column', file: FORMATS, find: 'if ((exact === 0 && nearRequired.length === 0) ||', replace: 'if (exact === 0 ||', tests: READER },
  { name: 'differences-cut-at-6', file: FORMATS, find: 'const SHOWN_DIFFERENCES = 4;', replace: 'const SHOWN_DIFFERENCES = 5;', tests: READER },
  { name: 'service-optional-field-required', file: READ, find: 'const missing = [...REQUIRED].filter((name) => !lower.includes(name));', replace: 'const missing = IMPORT_FIELDS.filter((name) => !lower.includes(name));', tests: READER },
  { name: 'service-source-domain-empty', file: READ, find: "if (!this.sourceDomain) link['source_domain'] = domainOfUrl(link['source_url'], this.domainOf);", replace: "if (!this.sourceDomain) link['source_domain'] = '';", tests: READER },
  { name: 'json-value-not-shortened', file: READ, find: 'return json.length > SHOWN_CELL ? `${json.slice(0, SHOWN_CELL - 1)}…` : json;', replace: 'return json;', tests: READER },
  { name: 'sep-line-ignored', file: READ, find: 'const match = /^sep=([;,\\t])\\r?\\n/i.exec(this.buffered);', replace: 'const match = null as RegExpExecArray | null;', tests: COLUMNS },
  { name: 'utf16-without-bom-as-nul-bytes', file: READ, find: 'if (at(0) || at(1)) return', replace: 'if (false) return', tests: READER },
  { name: 'ndjson-unscored-link-scores-domain', file: CLI, find: 'const scored = unscored.size === 0 ? batch.rows : batch.rows.filter((row) => !unscored.delete(row));', replace: 'const scored = batch.rows;', tests: REDUCED },
  { name: 'absent-fields-not-reported', file: CLI, find: 'if (absent.length > 0) lines.push(`  ${ABSENT_LINE}:', replace: 'if (false) lines.push(`  ${ABSENT_LINE}:', tests: REDUCED },
  { name: 'ndjson-absent-not-counted', file: CLI, find: 'for (const [field, count] of Object.entries(counts)) Object.assign(result.fields![field]!, { absent: [field], absent_in: count });', replace: '', tests: REDUCED },
  // ---- line numbers
  { name: 'ndjson-line-from-0', file: READ, find: 'private line = 1;', replace: 'private line = 0;', tests: READER },
  { name: 'csv-quoted-line-ends-not-counted', file: 'src/server/import/csv-tokenizer.ts', find: "for (let newline = text.indexOf('\\n', i); newline !== -1 && newline < end; newline = text.indexOf('\\n', newline + 1)) this.line++;", replace: '', tests: READER },
  { name: 'header-line-off-by-one', file: READ, find: 'format: name, title: format.title, produces: format.produces, headerLine: line,', replace: 'format: name, title: format.title, produces: format.produces, headerLine: line - 1,', tests: COLUMNS },
  { name: 'reject-line-off-by-one-on-stderr', file: CLI, find: 'io.stderr.write(`${bar.clear()}${file}:${line.line}: ${line.reason}\\n`);', replace: 'io.stderr.write(`${bar.clear()}${file}:${line.line + 1}: ${line.reason}\\n`);', tests: FORMAT_OPTION },
  { name: 'rejects-file-line-off-by-one', file: CLI, find: 'JSON.stringify({ file, line: line.line, reason: line.reason })', replace: 'JSON.stringify({ file, line: line.line + 1, reason: line.reason })', tests: FORMAT_OPTION },
  { name: 'rejected-lines-exit-0', file: CLI, find: 'return rejected > 0 ? EXIT.failure : EXIT.ok;', replace: 'return EXIT.ok;', tests: FORMAT_OPTION },
  // ---- encodings and file names
  { name: 'utf16-be-read-as-le', file: READ, find: "data[0] === 0xfe && data[1] === 0xff ? 'utf-16be' : 'utf-8'", replace: "data[0] === 0xfe && data[1] === 0xff ? 'utf-16le' : 'utf-8'", tests: READER },
  { name: 'tsv-not-csv', file: READ, find: "{ csv: 'csv', tsv: 'csv', ndjson:", replace: "{ csv: 'csv', ndjson:", tests: READER },
  // ---- batches
  { name: 'batch-last-partial-dropped', file: READ, find: 'if (this.current.length > 0) this.ready.push(this.current);', replace: '', tests: READER },
  { name: 'batch-one-too-many', file: READ, find: 'if (this.current.length >= this.size) {', replace: 'if (this.current.length > this.size) {', tests: READER },
  { name: 'derived-domains-last-batch-dropped', file: DERIVED, find: 'for (let i = 0; i < rows.length; i += batchSize)', replace: 'for (let i = 0; i + batchSize <= rows.length; i += batchSize)', tests: BATCH },
  { name: 'derived-domains-first-skipped', file: DERIVED, find: 'for (let i = 0; i < rows.length; i += batchSize)', replace: 'for (let i = 1; i < rows.length; i += batchSize)', tests: BATCH },
  { name: 'derived-domain-tie-lower-score', file: DERIVED, find: 'link.domain_score > known.score', replace: 'link.domain_score < known.score', tests: BATCH },
  { name: 'batch-below-1-taken', file: CLI, find: "const batchSize = integerOption(o, 'batch', 1) ?? 2_000;", replace: "const batchSize = integerOption(o, 'batch', 0) ?? 2_000;", tests: BATCH },
  // ---- import's flags
  { name: 'format-ndjson-read-as-csv', file: CLI, find: ": forced === 'ndjson' ? 'ndjson' : 'csv';", replace: ": 'csv';", tests: FORMAT_OPTION },
  { name: 'format-domains-ndjson-read-as-csv', file: CLI, find: "(forced === 'domains' && formatOfFile(file) === 'ndjson')", replace: 'false', tests: FORMAT_OPTION },
  { name: 'format-export-not-forced', file: CLI, find: 'shape: EXPORT_FORMAT_NAMES.find((name) => name === forced)', replace: 'shape: undefined', tests: FORMAT_OPTION },
  { name: 'seen-at-date-only-accepted', file: CLI, find: 'if (seenAt !== undefined && !(seenAt.length === 19 && isTimestampLiteral(seenAt)))', replace: 'if (seenAt !== undefined && !isTimestampLiteral(seenAt))', tests: SEEN_AT },
  { name: 'seen-at-default-now', file: CLI, find: 'seenAt: job.seenAt ?? statSync(file).mtime.toISOString().slice(0, 19),', replace: 'seenAt: job.seenAt ?? new Date().toISOString().slice(0, 19),', tests: SEEN_AT },
  { name: 'seen-at-ignored', file: CLI, find: 'seenAt: job.seenAt ?? statSync(file).mtime.toISOString().slice(0, 19),', replace: 'seenAt: statSync(file).mtime.toISOString().slice(0, 19),', tests: SEEN_AT },
  { name: 'unscored-export-scores-domains', file: CLI, find: "report.fields.some((field) => field.field === 'domain_score' && field.kind !== 'default')", replace: "report.fields.some((field) => field.field === 'domain_score')", tests: SEEN_AT },
  // ---- --memory-limit
  { name: 'memory-mib-as-mb', file: 'src/cli/server/database.ts', find: 'mib: 2 ** 20,', replace: 'mib: 1e6,', tests: MEMORY },
  { name: 'memory-kib-as-kb', file: 'src/cli/server/database.ts', find: 'kib: 2 ** 10,', replace: 'kib: 1e3,', tests: MEMORY },
  { name: 'memory-gib-as-gb', file: 'src/cli/server/database.ts', find: 'gib: 2 ** 30,', replace: 'gib: 1e9,', tests: MEMORY },
  { name: 'memory-minimum-excluded', file: 'src/cli/server/database.ts', find: 'if (!(bytes >= MIN_MEMORY_BYTES))', replace: 'if (!(bytes > MIN_MEMORY_BYTES))', tests: MEMORY },
  { name: 'memory-minimum-100mib', file: 'src/cli/server/database.ts', find: 'const MIN_MEMORY_BYTES = 128 * 2 ** 20;', replace: 'const MIN_MEMORY_BYTES = 100 * 2 ** 20;', tests: MEMORY },
  { name: 'memory-limit-not-passed', file: 'src/cli/server/database.ts', find: 'return { memoryLimit: `${size![1]}${size![2]}` };', replace: 'return {};', tests: MEMORY },
  { name: 'memory-limit-any-store', file: 'src/cli/server/database.ts', find: "if (kind !== 'embedded') throw new UsageError(", replace: "if (false) throw new UsageError(", tests: MEMORY },
  // ---- a file that fails
  { name: 'failing-file-ignored', file: CLI, find: '  if (unreadable.length > 0) {', replace: '  if (false) {', tests: ['test/server/import/all-or-nothing.test.ts'] },
  { name: 'max-rejects-ignored', file: CLI, find: '      if (job.maxRejects !== undefined && rejected > job.maxRejects) tooMany = true;', replace: '      if (job.maxRejects !== undefined && rejected > job.maxRejects + 1) tooMany = true;', tests: ['test/server/import/all-or-nothing.test.ts'] },
];

export const IMPORT_MUTANTS: readonly Mutant[] = entries.map((mutant) => ({ ...mutant, area: 'import', project: 'all' }));
