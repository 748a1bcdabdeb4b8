/**
 * The export formats `import` reads besides the service's own record, as data: for each, the
 * header columns that identify it, the rows it skips, and for every field of the record it
 * produces, where the value comes from: a column read as it is (`mapped`), a value worked out from
 * one or more columns (`derived`), or a documented constant (`default`). A field may list several
 * rules: the first whose columns are all in the file's header applies, so one format covers the
 * layouts of one tool, and the import's report says per field which rule a file got.
 *
 * Where each header comes from (real files in public repositories, or code that reads them) is
 * cited in docs/importing.md, which lists the same table for people.
 *
 * @module
 * @internal
 */
import { isTimestampLiteral } from '../../validate/timestamp.js';
import type { DomainInput, LinkInput } from '../store/inputs.js';
import { splitHostPath } from '../target.js';

/** The names `--format` takes for the formats of this module. */
export type ExportFormatName = 'semrush' | 'ahrefs' | 'majestic' | 'screaming-frog' | 'domains';

/** How a field of a file gets its value. */
export type FieldKind = 'mapped' | 'derived' | 'default';

/**
 * The cells of the current row, read by column name as a type: a cell that does not read as the
 * type adds a problem (`"First seen" must be a date YYYY-MM-DD ...`) and returns a stand-in, and
 * the row is rejected with every problem.
 */
export interface Cells {
  text(column: string): string;
  /** A URL with a host (`"Target url" has no host` otherwise). */
  url(column: string): string;
  /** `true`/`false` in any case, or `1`/`0`. */
  bool(column: string): boolean;
  /** A flag set by any value but empty, `0` and `false` (Majestic's download flags). */
  flag(column: string): boolean;
  /** A whole number from 0; an empty cell is 0. */
  count(column: string): number;
  /** A score 0-100, decimals rounded to the nearest integer; an empty cell is 0. */
  score(column: string): number;
  /** A whole number 0-100, required. */
  wholeScore(column: string): number;
  /** A domain name: not empty, no spaces or slashes, in lower case. */
  domain(column: string): string;
  /** `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DDTHH:MM:SS` (UTC), as `YYYY-MM-DDTHH:MM:SS`. */
  date(column: string): string;
  /** The registrable domain of a URL cell's host (the host itself without a public suffix list). */
  domainOfUrl(column: string): string;
  /** The time stamp of formats without dates: `--seen-at`, else the file's modification time. */
  readonly seenAt: string;
}

/** Where one field's value comes from. */
export interface FieldRule<T> {
  readonly kind: FieldKind;
  /** The header columns it reads (none for a default). */
  readonly columns: readonly string[];
  /** How, for the report and the docs. */
  readonly note: string;
  readonly value: (cells: Cells) => T;
}

/** One export format: identified by its header, turning rows into records of type `R`. */
export interface ExportFormat<R = LinkInput> {
  readonly name: ExportFormatName;
  readonly title: string;
  readonly produces: 'links' | 'domains';
  /** Whether a header column no rule reads refuses the file (the service's own files), rather than being left unread (a tool's export). */
  readonly strict?: boolean;
  /** Every one of these (any case) is in the header of a file of this format. */
  readonly detect: readonly string[];
  /** Why a row is skipped rather than imported (not an error), or `undefined` to read it. */
  readonly skip?: (cells: Cells) => string | undefined;
  /** Rules per field, the first applicable first; the last of each list applies to every header. */
  readonly fields: { readonly [F in keyof R]-?: readonly FieldRule<R[F]>[] };
}

const mapped = <T>(column: string, value: (cells: Cells) => T, note = 'as written'): FieldRule<T> => ({ kind: 'mapped', columns: [column], note, value });
const derived = <T>(columns: readonly string[], note: string, value: (cells: Cells) => T): FieldRule<T> => ({ kind: 'derived', columns, note, value });
const fixed = <T>(value: T, note: string): FieldRule<T> => ({ kind: 'default', columns: [], note, value: () => value });

const text = (column: string) => mapped(column, (c) => c.text(column));
const url = (column: string) => mapped(column, (c) => c.url(column), 'a URL with a host');
const bool = (column: string) => mapped(column, (c) => c.bool(column), 'true or false');
const count = (column: string) => mapped(column, (c) => c.count(column), 'a whole number; empty is 0');
const score = (column: string) => mapped(column, (c) => c.score(column), '0-100, rounded to a whole number; empty is 0');
const date = (column: string) => mapped(column, (c) => c.date(column), 'a date, at 00:00:00 UTC when it has no time');
const sourceDomain = (column: string) => derived([column], `the registrable domain of ${column}'s host`, (c) => c.domainOfUrl(column));

const NONE = 'not in this export';
const EMPTY = fixed('', NONE);
const ZERO = fixed(0, NONE);
const NO = fixed(false, NONE);
/** The source page answered: it was fetched and held the link. */
const OK = fixed(200, `${NONE}: the page was fetched and held the link`);

/** The anchor and the image alt of a tool that writes an image link's alt text as its anchor. */
function anchorOrAlt(anchor: string, isImage: (c: Cells) => boolean, flag: string): { anchor: FieldRule<string>[]; image_alt: FieldRule<string>[] } {
  return {
    anchor: [derived([anchor, flag], `${anchor}, empty for an image link`, (c) => (isImage(c) ? '' : c.text(anchor)))],
    image_alt: [derived([anchor, flag], `${anchor} of an image link, else empty`, (c) => (isImage(c) ? c.text(anchor) : ''))],
  };
}

const semrushText = anchorOrAlt('Anchor', (c) => c.bool('Image'), 'Image');
/**
 * Semrush, Backlink Analytics, Backlinks, Export (CSV): the 19 columns of today's exports, and the
 * 15 of the older layout (`Page score`, no Sponsored, Ugc, Text, New link, Lost link).
 */
const semrush: ExportFormat = {
  name: 'semrush',
  title: 'Semrush backlinks export',
  produces: 'links',
  detect: ['Source url', 'Target url', 'First seen', 'Nofollow'],
  fields: {
    source_url: [url('Source url')],
    target_url: [url('Target url')],
    anchor: semrushText.anchor,
    redirect_url: [EMPTY],
    source_title: [text('Source title')],
    target_title: [EMPTY],
    image_url: [EMPTY],
    image_alt: semrushText.image_alt,
    ip_address: [EMPTY],
    lang: [EMPTY],
    source_size: [ZERO],
    external_links_count: [count('External links')],
    internal_links_count: [count('Internal links')],
    response_code: [OK],
    page_score: [score('Page ascore'), score('Page score'), ZERO],
    domain_score: [fixed(0, `${NONE} (a page's score only; import a domains file for domain scores)`)],
    first_seen_at: [date('First seen')],
    last_seen_at: [date('Last seen')],
    source_domain: [sourceDomain('Source url')],
    is_nofollow: [bool('Nofollow')],
    is_ugc: [bool('Ugc'), NO],
    is_sponsored: [bool('Sponsored'), NO],
    is_form: [bool('Form')],
    is_frame: [bool('Frame')],
    is_image: [bool('Image')],
    // Sitewide marks every link of a sitewide set, not the set's main URL, which the field means.
    is_sitewide_main: [fixed(false, "not in this export (Sitewide marks every link of a sitewide set, not its main URL)")],
    is_lost: [bool('Lost link'), NO],
  },
};

const ahrefsType = (c: Cells) => c.text('Type').toLowerCase();
/** The first URL of a redirect chain cell (its URLs apart by spaces, commas or bars), or empty. */
const chainStart = (c: Cells) => c.text('Redirect Chain URLs').trim().split(/[\s,|]+/)[0]!;

const ahrefsText = anchorOrAlt('Anchor', (c) => ahrefsType(c) === 'image', 'Type');
/**
 * Ahrefs, Site Explorer, Backlinks, Export: 37 columns, written as UTF-16 with tabs for Excel or as
 * UTF-8 with commas.
 */
const ahrefs: ExportFormat = {
  name: 'ahrefs',
  title: 'Ahrefs backlinks export',
  produces: 'links',
  detect: ['Referring page URL', 'Target URL', 'Domain rating'],
  fields: {
    source_url: [url('Referring page URL')],
    // In real exports a filled Redirect Chain URLs holds the link's own href (and the hops after it,
    // Redirect Chain status codes their answers), and Target URL the page it ends on: the
    // interface's target_url, with the href as redirect_url.
    target_url: [url('Target URL')],
    anchor: ahrefsText.anchor,
    redirect_url: [derived(['Redirect Chain URLs'], 'the first URL of Redirect Chain URLs (the href that redirects), else empty', chainStart), EMPTY],
    source_title: [text('Referring page title')],
    target_title: [EMPTY],
    image_url: [EMPTY],
    image_alt: ahrefsText.image_alt,
    ip_address: [EMPTY],
    lang: [derived(['Language'], 'the first language of the list', (c) => c.text('Language').split(',')[0]!.trim()), EMPTY],
    source_size: [ZERO],
    external_links_count: [count('External links'), ZERO],
    internal_links_count: [ZERO],
    response_code: [mapped('Referring page HTTP code', (c) => c.count('Referring page HTTP code') || 200, 'an HTTP status; empty is 200'), OK],
    page_score: [score('UR'), ZERO],
    domain_score: [score('Domain rating')],
    first_seen_at: [date('First seen')],
    last_seen_at: [date('Last seen')],
    source_domain: [sourceDomain('Referring page URL')],
    is_nofollow: [bool('Nofollow')],
    is_ugc: [bool('UGC'), NO],
    is_sponsored: [bool('Sponsored'), NO],
    is_form: [derived(['Type'], 'Type is form', (c) => ahrefsType(c) === 'form')],
    is_frame: [derived(['Type'], 'Type is frame', (c) => ahrefsType(c) === 'frame')],
    is_image: [derived(['Type'], 'Type is image', (c) => ahrefsType(c) === 'image')],
    is_sitewide_main: [NO],
    is_lost: [derived(['Lost'], 'Lost holds a date (empty while the link is live)', (c) => c.text('Lost') !== '' && c.date('Lost') !== ''), NO],
  },
};

const majesticText = anchorOrAlt('Anchor Text', (c) => c.flag('FlagImageLink'), 'FlagImageLink');
/** Majestic, Site Explorer, Backlinks, Download (the API's DownloadBackLinks): 20 columns. */
const majestic: ExportFormat = {
  name: 'majestic',
  title: 'Majestic backlinks download',
  produces: 'links',
  detect: ['Source URL', 'Target URL', 'SourceTrustFlow'],
  fields: {
    source_url: [url('Source URL')],
    target_url: [url('Target URL')],
    anchor: majesticText.anchor,
    redirect_url: [EMPTY],
    source_title: [EMPTY],
    target_title: [EMPTY],
    image_url: [EMPTY],
    image_alt: majesticText.image_alt,
    ip_address: [EMPTY],
    lang: [EMPTY],
    source_size: [ZERO],
    external_links_count: [ZERO],
    internal_links_count: [ZERO],
    response_code: [OK],
    page_score: [mapped('SourceTrustFlow', (c) => c.score('SourceTrustFlow'), "the source page's Trust Flow, 0-100")],
    domain_score: [fixed(0, `${NONE} (a page's Trust Flow only; import a domains file for domain scores)`)],
    first_seen_at: [date('Source First Found Date')],
    last_seen_at: [date('Source Crawl Date')],
    source_domain: [sourceDomain('Source URL')],
    is_nofollow: [mapped('FlagNoFollow', (c) => c.flag('FlagNoFollow'), 'set by any value but empty, 0 or false')],
    is_ugc: [NO],
    is_sponsored: [NO],
    is_form: [NO],
    is_frame: [mapped('FlagFrame', (c) => c.flag('FlagFrame'), 'set by any value but empty, 0 or false'), NO],
    is_image: [mapped('FlagImageLink', (c) => c.flag('FlagImageLink'), 'set by any value but empty, 0 or false')],
    is_sitewide_main: [NO],
    is_lost: [derived(['FlagOldCrawl'], 'FlagOldCrawl set: the link was not on the latest crawl of its page', (c) => c.flag('FlagOldCrawl')), NO],
  },
};

/** Screaming Frog's `Type` values of links; every other type (images, CSS, JavaScript, canonicals) is skipped. */
const SCREAMING_FROG_LINKS: ReadonlySet<string> = new Set(['hyperlink', 'href', 'ahref']);
/** The time of a crawl whose export has no dates. */
const SEEN_AT: FieldRule<string> = { kind: 'default', columns: [], note: `${NONE}: --seen-at, else the file's modification time`, value: (c) => c.seenAt };
const relHas = (c: Cells, token: string) => c.text('Rel').toLowerCase().split(/\s+/).includes(token);

/**
 * Screaming Frog SEO Spider, Bulk Export, Links, All Inlinks or All Outlinks (the same columns):
 * 15 columns today; 8 or 9 in older versions, which write a title line above the header.
 */
const screamingFrog: ExportFormat = {
  name: 'screaming-frog',
  title: 'Screaming Frog inlinks/outlinks export',
  produces: 'links',
  detect: ['Type', 'Source', 'Destination', 'Follow'],
  skip: (c) => (SCREAMING_FROG_LINKS.has(c.text('Type').toLowerCase()) ? undefined : `Type ${c.text('Type') || '(empty)'} is not a link`),
  fields: {
    source_url: [url('Source')],
    target_url: [url('Destination')],
    anchor: [text('Anchor')],
    redirect_url: [EMPTY],
    source_title: [EMPTY],
    target_title: [EMPTY],
    image_url: [EMPTY],
    image_alt: [text('Alt Text'), EMPTY],
    ip_address: [EMPTY],
    lang: [EMPTY],
    source_size: [ZERO],
    external_links_count: [ZERO],
    internal_links_count: [ZERO],
    // Status Code is the destination's answer, not the source page's.
    response_code: [OK],
    page_score: [ZERO],
    domain_score: [ZERO],
    first_seen_at: [SEEN_AT],
    last_seen_at: [SEEN_AT],
    source_domain: [sourceDomain('Source')],
    is_nofollow: [
      derived(['Follow', 'Rel'], 'Follow is false, or Rel holds nofollow', (c) => !c.bool('Follow') || relHas(c, 'nofollow')),
      derived(['Follow'], 'Follow is false', (c) => !c.bool('Follow')),
    ],
    is_ugc: [derived(['Rel'], 'Rel holds ugc', (c) => relHas(c, 'ugc')), NO],
    is_sponsored: [derived(['Rel'], 'Rel holds sponsored', (c) => relHas(c, 'sponsored')), NO],
    is_form: [NO],
    is_frame: [NO],
    is_image: [derived(['Alt Text'], 'Alt Text is not empty: the link holds an image', (c) => c.text('Alt Text') !== ''), NO],
    is_sitewide_main: [NO],
    is_lost: [fixed(false, 'not in this export: a crawl finds live links')],
  },
};

/** A domains file: a referring domain's (or a target's) own data, beside the links. */
const domains: ExportFormat<DomainInput> = {
  name: 'domains',
  title: 'domains file',
  produces: 'domains',
  detect: ['domain', 'domain_score'],
  strict: true,
  fields: {
    domain: [mapped('domain', (c) => c.domain('domain'), 'a host name, in lower case')],
    domain_score: [mapped('domain_score', (c) => c.wholeScore('domain_score'), 'a whole number 0-100')],
    ip_address: [text('ip_address'), fixed('', 'not in this file')],
    country: [text('country'), fixed('', 'not in this file')],
  },
};

/** Every export format, in the order the docs list them. */
export const EXPORT_FORMATS = { semrush, ahrefs, majestic, 'screaming-frog': screamingFrog, domains } as const satisfies Record<ExportFormatName, ExportFormat<LinkInput> | ExportFormat<DomainInput>>;

/**
 * The names of the export formats, as `import --format` takes them.
 *
 * @example
 * ```ts
 * EXPORT_FORMAT_NAMES; // ['semrush', 'ahrefs', 'majestic', 'screaming-frog', 'domains']
 * ```
 */
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as ExportFormatName[];

/**
 * What `import --format` takes: a syntax (`ndjson`, or `csv` in the format its header names), or
 * an export format.
 *
 * @example
 * ```ts
 * IMPORT_FORMAT_NAMES; // ['ndjson', 'csv', 'semrush', 'ahrefs', 'majestic', 'screaming-frog', 'domains']
 * ```
 */
export const IMPORT_FORMAT_NAMES: readonly string[] = ['ndjson', 'csv', ...EXPORT_FORMAT_NAMES];

/** What one field of a file gets, for the report. */
export interface FieldReport {
  readonly field: string;
  readonly kind: FieldKind;
  /** The columns as the file's header spells them. */
  readonly columns: readonly string[];
  readonly note: string;
}

/** The formats whose identifying columns are all in a header (names compared in any case). */
export function formatsOfHeader(names: readonly string[]): ExportFormatName[] {
  const present = new Set(names.map((name) => name.trim().toLowerCase()));
  return (Object.keys(EXPORT_FORMATS) as ExportFormatName[]).filter((name) => EXPORT_FORMATS[name].detect.every((column) => present.has(column.toLowerCase())));
}

const DATE = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2}))?$/;
const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;
const FALSE_FLAGS: ReadonlySet<string> = new Set(['', '0', 'false']);

/** The {@link Cells} of a file: column names resolved against its header once. */
class HeaderCells implements Cells {
  private cells: readonly string[] = [];
  private count_ = 0;
  problems: string[] = [];

  constructor(
    private readonly index: ReadonlyMap<string, number>,
    private readonly spelled: ReadonlyMap<string, string>,
    private readonly domainOf: (host: string) => string,
    readonly seenAt: string,
  ) {}

  /** Points at the next row. */
  row(cells: readonly string[], count: number): void {
    this.cells = cells;
    this.count_ = count;
    this.problems = [];
  }

  /** A problem of the cell in `column`: the column as the header spells it, what it must be, and what it holds (shortened). */
  private problem(column: string, must: string): void {
    const cell = this.text(column);
    const shown = cell === '' ? 'empty' : JSON.stringify(cell.length > SHOWN_CELL ? `${cell.slice(0, SHOWN_CELL - 1)}…` : cell);
    this.problems.push(`${JSON.stringify(this.spelled.get(column.toLowerCase()) ?? column)} ${must}, not ${shown}`);
  }

  text(column: string): string {
    const at = this.index.get(column.toLowerCase());
    return at === undefined || at >= this.count_ ? '' : this.cells[at]!;
  }

  url(column: string): string {
    const value = this.text(column).trim();
    if (splitHostPath(value) === undefined) this.problem(column, 'must be a URL with a host');
    return value;
  }

  bool(column: string): boolean {
    const value = this.text(column).trim().toLowerCase();
    if (value === 'true' || value === '1') return true;
    if (value !== 'false' && value !== '0') this.problem(column, 'must be true or false');
    return false;
  }

  flag(column: string): boolean {
    return !FALSE_FLAGS.has(this.text(column).trim().toLowerCase());
  }

  count(column: string): number {
    const value = this.text(column).trim();
    if (value === '') return 0;
    const number = Number(value);
    if (!WHOLE.test(value) || !Number.isSafeInteger(number)) this.problem(column, 'must be a whole number');
    return Number.isSafeInteger(number) ? number : 0;
  }

  score(column: string): number {
    const value = this.text(column).trim();
    if (value === '') return 0;
    const number = Math.round(Number(value));
    if (!DECIMAL.test(value) || number > 100) {
      this.problem(column, 'must be a score from 0 to 100');
      return 0;
    }
    return number;
  }

  wholeScore(column: string): number {
    const value = this.text(column).trim();
    const number = Number(value);
    if (WHOLE.test(value) && number <= 100) return number;
    this.problem(column, 'must be a whole number from 0 to 100');
    return 0;
  }

  domain(column: string): string {
    const value = this.text(column).trim().toLowerCase();
    if (value === '' || /[\s/]/.test(value)) this.problem(column, 'must be a domain name');
    return value;
  }

  date(column: string): string {
    const value = this.text(column).trim();
    const match = DATE.exec(value);
    const stamp = match ? `${match[1]}T${match[2] ?? '00:00:00'}` : '';
    if (!match || !isTimestampLiteral(stamp)) {
      this.problem(column, 'must be a date YYYY-MM-DD, with a time HH:MM:SS or not');
      return '';
    }
    return stamp;
  }

  domainOfUrl(column: string): string {
    const parts = splitHostPath(this.text(column));
    return parts === undefined ? '' : this.domainOf(parts.host);
  }
}

/** The characters of a bad cell a row error quotes. */
const SHOWN_CELL = 40;

/** A format made ready for one header: turns a row into a record, a skip reason, or its problems. */
export interface CompiledFormat<R> {
  readonly report: readonly FieldReport[];
  /** Header columns no rule reads. */
  readonly ignored: readonly string[];
  read(cells: readonly string[], count: number): { readonly record: R } | { readonly skip: string } | { readonly problems: readonly string[] };
}

/**
 * Compiles a format against a header: per field, the first rule whose columns are all present.
 * `undefined` when a field has no applicable rule (the header lacks a column it needs): the
 * columns missing are then listed.
 */
export function compileFormat<R>(
  format: ExportFormat<R>,
  header: readonly string[],
  options: { readonly domainOf: (host: string) => string; readonly seenAt: string },
): CompiledFormat<R> | { readonly missing: readonly string[] } {
  const index = new Map<string, number>();
  const spelled = new Map<string, string>();
  header.forEach((name, at) => {
    const key = name.trim().toLowerCase();
    if (!index.has(key)) index.set(key, at), spelled.set(key, name.trim());
  });
  const has = (column: string) => index.has(column.toLowerCase());
  const chosen: [keyof R, FieldRule<unknown>][] = [];
  const missing = new Set<string>();
  for (const [field, rules] of Object.entries(format.fields) as [keyof R, readonly FieldRule<unknown>[]][]) {
    const rule = rules.find((candidate) => candidate.columns.every(has));
    if (rule) chosen.push([field, rule]);
    else for (const column of rules[rules.length - 1]!.columns) if (!has(column)) missing.add(column);
  }
  if (missing.size > 0) return { missing: [...missing] };
  const read = new Set(chosen.flatMap(([, rule]) => rule.columns.map((column) => column.toLowerCase())));
  if (format.skip) for (const column of format.detect) read.add(column.toLowerCase());
  const cells = new HeaderCells(index, spelled, options.domainOf, options.seenAt);
  const template = Object.fromEntries(chosen.map(([field]) => [field, undefined]));
  return {
    report: chosen.map(([field, rule]) => ({ field: String(field), kind: rule.kind, columns: rule.columns.map((column) => spelled.get(column.toLowerCase())!), note: rule.note })),
    ignored: header.map((name) => name.trim()).filter((name) => !read.has(name.toLowerCase())),
    read(row, count) {
      cells.row(row, count);
      const skip = format.skip?.(cells);
      if (skip !== undefined) return { skip };
      const record: Record<string, unknown> = { ...template };
      for (const [field, rule] of chosen) record[field as string] = rule.value(cells);
      return cells.problems.length > 0 ? { problems: cells.problems } : { record: record as R };
    },
  };
}
