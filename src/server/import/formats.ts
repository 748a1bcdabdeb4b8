/**
 * The export formats `import` reads besides the service's own record, as data: for each, the
 * header columns that identify it, the rows it skips, and for every field of the record it
 * produces, where the value comes from: a column read as it is (`mapped`), a value worked out from
 * one or more columns (`derived`), or a documented constant (`default`). A field may list several
 * rules: the first whose columns are all in the file's header applies, so one format covers the
 * layouts of one tool, and the import's report says per field which rule a file got. Only the
 * columns of the source and target URLs are required: every other field's list ends with a
 * default, the field's unknown value (empty, 0, false; a date is the other date column, else the
 * file's time), which a file without the column gets, and the report names the columns absent.
 *
 * Where each header comes from (real files in public repositories, or code that reads them) is
 * cited in docs/importing.md, which lists the same table for people.
 *
 * @module
 * @internal
 */
import { didYouMean, suggest } from '../../shared/suggest.js';
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
  /** The columns a file of this format must have (any case): those of the source and target URLs (a domains file: the domain and its score). */
  readonly detect: readonly string[];
  /** The columns of the tool's exports that no rule reads: they count as the format's when a header is matched to a format. */
  readonly others: readonly string[];
  /** Why a row is skipped rather than imported (not an error), or `undefined` to read it; only when the header has every one of `columns`. */
  readonly skip?: { readonly columns: readonly string[]; readonly why: (cells: Cells) => string | undefined };
  /** Rules per field, the first applicable first; the last of each list (a default, or the required URL) applies to every header that has the required columns. */
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
/** The unknown values of a field whose column this file lacks (the export may have it). */
const ABSENT = 'its column is not in this file';
const NO_TEXT = fixed('', `${ABSENT}: empty`);
const NO_COUNT = fixed(0, `${ABSENT}: 0`);
const NO_FLAG = fixed(false, `${ABSENT}: false`);
const NO_STATUS = fixed(200, `${ABSENT}: 200, the page was fetched and held the link`);
/** The time of a file that gives no date: `--seen-at`, else the file's modification time. */
const seenAt = (note: string): FieldRule<string> => ({ kind: 'default', columns: [], note, value: (c) => c.seenAt });
const NO_DATE = seenAt(`${ABSENT}: --seen-at, else the file's modification time`);
/** A date column, else the other date column of the link, else the file's time. */
const dates = (column: string, other: string): FieldRule<string>[] => [date(column), derived([other], `${column} is not in this file: ${other}`, (c) => c.date(other)), NO_DATE];

/**
 * The anchor and the image alt of a tool that writes an image link's alt text as its anchor;
 * without the column that says a link is an image, every link reads as a text link.
 */
function anchorOrAlt(anchor: string, isImage: (c: Cells) => boolean, flag: string): { anchor: FieldRule<string>[]; image_alt: FieldRule<string>[] } {
  return {
    anchor: [
      derived([anchor, flag], `${anchor}, empty for an image link`, (c) => (isImage(c) ? '' : c.text(anchor))),
      mapped(anchor, (c) => c.text(anchor), `as written (${flag} is not in this file: a text link)`),
      NO_TEXT,
    ],
    image_alt: [derived([anchor, flag], `${anchor} of an image link, else empty`, (c) => (isImage(c) ? c.text(anchor) : '')), NO_TEXT],
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
  detect: ['Source url', 'Target url'],
  others: ['Text', 'Sitewide', 'New link', 'Page trust score'],
  fields: {
    source_url: [url('Source url')],
    target_url: [url('Target url')],
    anchor: semrushText.anchor,
    redirect_url: [EMPTY],
    source_title: [text('Source title'), NO_TEXT],
    target_title: [EMPTY],
    image_url: [EMPTY],
    image_alt: semrushText.image_alt,
    ip_address: [EMPTY],
    lang: [EMPTY],
    source_size: [ZERO],
    external_links_count: [count('External links'), NO_COUNT],
    internal_links_count: [count('Internal links'), NO_COUNT],
    response_code: [OK],
    page_score: [score('Page ascore'), score('Page score'), NO_COUNT],
    domain_score: [fixed(0, `${NONE} (a page's score only; import a domains file for domain scores)`)],
    first_seen_at: dates('First seen', 'Last seen'),
    last_seen_at: dates('Last seen', 'First seen'),
    source_domain: [sourceDomain('Source url')],
    is_nofollow: [bool('Nofollow'), NO_FLAG],
    is_ugc: [bool('Ugc'), NO_FLAG],
    is_sponsored: [bool('Sponsored'), NO_FLAG],
    is_form: [bool('Form'), NO_FLAG],
    is_frame: [bool('Frame'), NO_FLAG],
    is_image: [bool('Image'), NO_FLAG],
    // Sitewide marks every link of a sitewide set, not the set's main URL, which the field means.
    is_sitewide_main: [fixed(false, "not in this export (Sitewide marks every link of a sitewide set, not its main URL)")],
    is_lost: [bool('Lost link'), NO_FLAG],
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
  detect: ['Referring page URL', 'Target URL'],
  others: [
    'Platform', 'Domain traffic', 'Referring domains', 'Linked domains', 'Page traffic', 'Keywords', 'Left context', 'Right context', 'Redirect Chain status codes',
    'Is spam', 'Content', 'Rendered', 'Raw', 'Lost status', 'Drop reason', 'Discovered status', 'Author', 'Page type', 'Page category', 'Links in group',
  ],
  fields: {
    source_url: [url('Referring page URL')],
    // In real exports a filled Redirect Chain URLs holds the link's own href (and the hops after it,
    // Redirect Chain status codes their answers), and Target URL the page it ends on: the
    // interface's target_url, with the href as redirect_url.
    target_url: [url('Target URL')],
    anchor: ahrefsText.anchor,
    redirect_url: [derived(['Redirect Chain URLs'], 'the first URL of Redirect Chain URLs (the href that redirects), else empty', chainStart), NO_TEXT],
    source_title: [text('Referring page title'), NO_TEXT],
    target_title: [EMPTY],
    image_url: [EMPTY],
    image_alt: ahrefsText.image_alt,
    ip_address: [EMPTY],
    lang: [derived(['Language'], 'the first language of the list', (c) => c.text('Language').split(',')[0]!.trim()), NO_TEXT],
    source_size: [ZERO],
    external_links_count: [count('External links'), NO_COUNT],
    internal_links_count: [ZERO],
    response_code: [mapped('Referring page HTTP code', (c) => c.count('Referring page HTTP code') || 200, 'an HTTP status; empty is 200'), NO_STATUS],
    page_score: [score('UR'), NO_COUNT],
    domain_score: [score('Domain rating'), NO_COUNT],
    first_seen_at: dates('First seen', 'Last seen'),
    last_seen_at: dates('Last seen', 'First seen'),
    source_domain: [sourceDomain('Referring page URL')],
    is_nofollow: [bool('Nofollow'), NO_FLAG],
    is_ugc: [bool('UGC'), NO_FLAG],
    is_sponsored: [bool('Sponsored'), NO_FLAG],
    is_form: [derived(['Type'], 'Type is form', (c) => ahrefsType(c) === 'form'), NO_FLAG],
    is_frame: [derived(['Type'], 'Type is frame', (c) => ahrefsType(c) === 'frame'), NO_FLAG],
    is_image: [derived(['Type'], 'Type is image', (c) => ahrefsType(c) === 'image'), NO_FLAG],
    is_sitewide_main: [NO],
    is_lost: [derived(['Lost'], 'Lost holds a date (empty while the link is live)', (c) => c.text('Lost') !== '' && c.date('Lost') !== ''), NO_FLAG],
  },
};

const majesticText = anchorOrAlt('Anchor Text', (c) => c.flag('FlagImageLink'), 'FlagImageLink');
/** Majestic, Site Explorer, Backlinks, Download (the API's DownloadBackLinks): 20 columns. */
const majestic: ExportFormat = {
  name: 'majestic',
  title: 'Majestic backlinks download',
  produces: 'links',
  detect: ['Source URL', 'Target URL'],
  others: [
    'FlagRedirect', 'FlagAltText', 'FlagMention', 'SourceCitationFlow', 'TargetCitationFlow', 'TargetTrustFlow', 'SourceTopicalTrustFlow_Topic_0',
    'SourceTopicalTrustFlow_Value_0', 'RefDomainTopicalTrustFlow_Topic_0', 'RefDomainTopicalTrustFlow_Value_0',
  ],
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
    page_score: [mapped('SourceTrustFlow', (c) => c.score('SourceTrustFlow'), "the source page's Trust Flow, 0-100"), NO_COUNT],
    domain_score: [fixed(0, `${NONE} (a page's Trust Flow only; import a domains file for domain scores)`)],
    first_seen_at: dates('Source First Found Date', 'Source Crawl Date'),
    last_seen_at: dates('Source Crawl Date', 'Source First Found Date'),
    source_domain: [sourceDomain('Source URL')],
    is_nofollow: [mapped('FlagNoFollow', (c) => c.flag('FlagNoFollow'), 'set by any value but empty, 0 or false'), NO_FLAG],
    is_ugc: [NO],
    is_sponsored: [NO],
    is_form: [NO],
    is_frame: [mapped('FlagFrame', (c) => c.flag('FlagFrame'), 'set by any value but empty, 0 or false'), NO_FLAG],
    is_image: [mapped('FlagImageLink', (c) => c.flag('FlagImageLink'), 'set by any value but empty, 0 or false'), NO_FLAG],
    is_sitewide_main: [NO],
    is_lost: [derived(['FlagOldCrawl'], 'FlagOldCrawl set: the link was not on the latest crawl of its page', (c) => c.flag('FlagOldCrawl')), NO_FLAG],
  },
};

/** Screaming Frog's `Type` values of links; every other type (images, CSS, JavaScript, canonicals) is skipped. */
const SCREAMING_FROG_LINKS: ReadonlySet<string> = new Set(['hyperlink', 'href', 'ahref']);
/** The time of a crawl whose export has no dates. */
const SEEN_AT = seenAt(`${NONE}: --seen-at, else the file's modification time`);
const relHas = (c: Cells, token: string) => c.text('Rel').toLowerCase().split(/\s+/).includes(token);

/**
 * Screaming Frog SEO Spider, Bulk Export, Links, All Inlinks or All Outlinks (the same columns):
 * 15 columns today; 8 or 9 in older versions, which write a title line above the header.
 */
const screamingFrog: ExportFormat = {
  name: 'screaming-frog',
  title: 'Screaming Frog inlinks/outlinks export',
  produces: 'links',
  detect: ['Source', 'Destination'],
  others: ['Size (Bytes)', 'Status Code', 'Status', 'Target', 'Path Type', 'Link Path', 'Link Position', 'Link Origin'],
  // Without a Type column, every row is read as a link.
  skip: { columns: ['Type'], why: (c) => (SCREAMING_FROG_LINKS.has(c.text('Type').toLowerCase()) ? undefined : `Type ${c.text('Type') || '(empty)'} is not a link`) },
  fields: {
    source_url: [url('Source')],
    target_url: [url('Destination')],
    anchor: [text('Anchor'), NO_TEXT],
    redirect_url: [EMPTY],
    source_title: [EMPTY],
    target_title: [EMPTY],
    image_url: [EMPTY],
    image_alt: [text('Alt Text'), NO_TEXT],
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
      derived(['Rel'], 'Rel holds nofollow', (c) => relHas(c, 'nofollow')),
      NO_FLAG,
    ],
    is_ugc: [derived(['Rel'], 'Rel holds ugc', (c) => relHas(c, 'ugc')), NO_FLAG],
    is_sponsored: [derived(['Rel'], 'Rel holds sponsored', (c) => relHas(c, 'sponsored')), NO_FLAG],
    is_form: [NO],
    is_frame: [NO],
    is_image: [derived(['Alt Text'], 'Alt Text is not empty: the link holds an image', (c) => c.text('Alt Text') !== ''), NO_FLAG],
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
  others: [],
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
  /** The columns the format reads for this field that the file lacks, when the field got its unknown value for that (else empty). */
  readonly absent: readonly string[];
}

/** Every column a format knows: those its rules and its skip read, and the tool's others. */
function knownColumns(name: ExportFormatName): string[] {
  const format = EXPORT_FORMATS[name] as ExportFormat<unknown>;
  const rules = Object.values(format.fields) as readonly FieldRule<unknown>[][];
  return [...new Set([...format.detect, ...rules.flatMap((list) => list.flatMap((rule) => rule.columns)), ...(format.skip?.columns ?? []), ...format.others])];
}
const KNOWN_COLUMNS = new Map(EXPORT_FORMAT_NAMES.map((name) => [name, new Set(knownColumns(name).map((column) => column.toLowerCase()))]));

/**
 * The formats a header fits: of those whose required columns (`detect`) are all in it, the ones
 * that know the most of its columns (names compared in any case, spaces around them ignored).
 * Several on a tie (a header of Semrush's and Majestic's `Source url` and `Target url` alone).
 */
export function formatsOfHeader(names: readonly string[]): ExportFormatName[] {
  const present = [...new Set(names.map((name) => name.trim().toLowerCase()))];
  const fitting = EXPORT_FORMAT_NAMES.filter((name) => EXPORT_FORMATS[name].detect.every((column) => present.includes(column.toLowerCase())));
  const known = (name: ExportFormatName) => present.filter((column) => KNOWN_COLUMNS.get(name)!.has(column)).length;
  const most = Math.max(0, ...fitting.map(known));
  return fitting.filter((name) => known(name) === most);
}

/** A format as {@link closestFormat} compares a header with it. */
export interface FormatColumns {
  /** How a message names it. */
  readonly title: string;
  readonly required: readonly string[];
  /** Every column it knows, as it spells them. */
  readonly known: readonly string[];
  /** Whether a column it does not know refuses the file. */
  readonly strict: boolean;
}

/** The columns of each export format, for {@link closestFormat}. */
export function exportFormatColumns(): FormatColumns[] {
  return EXPORT_FORMAT_NAMES.map((name) => {
    const format = EXPORT_FORMATS[name] as ExportFormat<unknown>;
    return { title: `${format.title} (${name})`, required: format.detect, known: knownColumns(name), strict: format.strict === true };
  });
}

/** The lines of a header message that are listed in full; more are counted. */
const SHOWN_DIFFERENCES = 4;

/**
 * The format a header that fits none is closest to, and how its columns differ, one line per
 * column: the names that are not its columns but close to one (`suggest`'s "did you mean"), the
 * required columns it lacks, and for a strict format the other names it does not know. A format is
 * close when the header has one of its columns, or a name close to a required one; of those, the
 * one with the most columns and close names (then the most columns). `undefined` when none is.
 */
export function closestFormat(names: readonly string[], formats: readonly FormatColumns[]): { readonly title: string; readonly lines: readonly string[] } | undefined {
  const header = names.map((name) => name.trim());
  let best: { title: string; lines: string[]; score: readonly [number, number] } | undefined;
  for (const format of formats) {
    const known = new Set(format.known.map((column) => column.toLowerCase()));
    const required = new Set(format.required.map((column) => column.toLowerCase()));
    const exact = header.filter((name) => known.has(name.toLowerCase())).length;
    const unknown = header.filter((name) => !known.has(name.toLowerCase()));
    const near = new Map(unknown.flatMap((name) => {
      const column = name === '' ? undefined : suggest(name, format.known, { anyCase: true });
      return column === undefined ? [] : [[name, column] as const];
    }));
    const nearRequired = [...near.values()].filter((column) => required.has(column.toLowerCase()));
    const score = [exact + near.size, exact] as const;
    if ((exact === 0 && nearRequired.length === 0) || (best && (score[0] < best.score[0] || (score[0] === best.score[0] && score[1] <= best.score[1])))) continue;
    const lines = unknown.flatMap((name) => (near.has(name) ? [`${JSON.stringify(name)} is not a column of it${didYouMean(near.get(name), '')}`] : format.strict ? [`${JSON.stringify(name)} is not a column of it`] : []));
    for (const column of format.required) {
      if (!header.some((name) => name.toLowerCase() === column.toLowerCase()) && !nearRequired.includes(column)) lines.push(`${JSON.stringify(column)} is missing`);
    }
    best = { title: format.title, lines, score };
  }
  if (!best) return undefined;
  const { lines } = best;
  const shown = lines.length > SHOWN_DIFFERENCES + 1 ? [...lines.slice(0, SHOWN_DIFFERENCES), `and ${lines.length - SHOWN_DIFFERENCES} more columns`] : lines;
  return { title: best.title, lines: shown };
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
    this.problems.push(`${JSON.stringify(this.spelled.get(column.toLowerCase()) ?? column)} ${must}, not ${shownCell(this.text(column))}`);
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
export const SHOWN_CELL = 40;

/**
 * A bad cell as a row error quotes it: `empty`, or in double quotes, its first 39 characters and
 * an ellipsis when it has more than 40.
 *
 * @example
 * ```ts
 * shownCell('maybe'); // '"maybe"'
 * ```
 */
export function shownCell(cell: string): string {
  return cell === '' ? 'empty' : JSON.stringify(cell.length > SHOWN_CELL ? `${cell.slice(0, SHOWN_CELL - 1)}…` : cell);
}

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
  const chosen: [keyof R, FieldRule<unknown>, string[]][] = [];
  const missing = new Set<string>();
  for (const [field, rules] of Object.entries(format.fields) as [keyof R, readonly FieldRule<unknown>[]][]) {
    const at = rules.findIndex((candidate) => candidate.columns.every(has));
    // A default reached because the columns of the rules before it are not all in the header.
    const absent = at > 0 && rules[at]!.kind === 'default' ? [...new Set(rules.slice(0, at).flatMap((rule) => rule.columns).filter((column) => !has(column)))] : [];
    if (at !== -1) chosen.push([field, rules[at]!, absent]);
    else for (const column of rules[rules.length - 1]!.columns) if (!has(column)) missing.add(column);
  }
  if (missing.size > 0) return { missing: [...missing] };
  const read = new Set(chosen.flatMap(([, rule]) => rule.columns.map((column) => column.toLowerCase())));
  const skips = format.skip && format.skip.columns.every(has) ? format.skip.why : undefined;
  if (skips) for (const column of format.skip!.columns) read.add(column.toLowerCase());
  const cells = new HeaderCells(index, spelled, options.domainOf, options.seenAt);
  const template = Object.fromEntries(chosen.map(([field]) => [field, undefined]));
  return {
    report: chosen.map(([field, rule, absent]) => ({ field: String(field), kind: rule.kind, columns: rule.columns.map((column) => spelled.get(column.toLowerCase())!), note: rule.note, absent })),
    ignored: header.map((name) => name.trim()).filter((name) => !read.has(name.toLowerCase())),
    read(row, count) {
      cells.row(row, count);
      const skip = skips?.(cells);
      if (skip !== undefined) return { skip };
      const record: Record<string, unknown> = { ...template };
      for (const [field, rule] of chosen) record[field as string] = rule.value(cells);
      return cells.problems.length > 0 ? { problems: cells.problems } : { record: record as R };
    },
  };
}
