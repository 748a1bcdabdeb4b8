/**
 * Writing a link graph into the SQLite store: the shapes the generator and the test fixtures
 * produce, and the batched inserts. The target's host, registrable domain and path and the
 * source IP's class C are derived here, once, with the same code the queries match with.
 *
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { RowOf } from '../../catalogue/types.js';
import type { DomainParser } from '../deps.js';
import { normalizeKeyword } from '../store/sqlite/keyword-sql.js';
import { splitUrl } from '../target.js';

/** A stored link: every backlink field except `is_new`, which depends on the clock. */
export type LinkInput = Omit<RowOf<'links'>, 'is_new'>;

/** A domain's own data (referring domains and targets alike). */
export interface DomainInput {
  readonly domain: string;
  readonly ip_address: string;
  readonly country: string;
  readonly domain_score: number;
}

/** A page of a target. */
export interface TargetPageInput {
  readonly url: string;
  readonly title: string;
  readonly response_code: number;
  readonly page_score: number;
  readonly external_links_count: number;
  readonly internal_links_count: number;
}

/** One snapshot of a keyword's metrics. */
export type KeywordSnapshotInput = RowOf<'metrics'> & {
  readonly keyword: string;
  readonly country: string;
  /** `YYYY-MM` */
  readonly month: string;
  /** `YYYY-MM-DDTHH:MM:SS`: the latest snapshot of a month wins. */
  readonly snapshot_at: string;
};

const LINK_COLUMNS = [
  'source_url', 'target_url', 'anchor', 'redirect_url', 'source_title', 'target_title', 'image_url', 'image_alt',
  'ip_address', 'lang', 'source_size', 'external_links_count', 'internal_links_count', 'response_code', 'page_score',
  'domain_score', 'first_seen_at', 'last_seen_at', 'source_domain', 'is_nofollow', 'is_ugc', 'is_sponsored', 'is_form',
  'is_frame', 'is_image', 'is_sitewide_main', 'is_lost',
] as const satisfies readonly (keyof LinkInput)[];

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const toDb = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/**
 * The /24 network of an IPv4 address (`a.b.c`), or the address itself.
 *
 * @example
 * ```ts
 * classC('192.0.2.17'); // '192.0.2'
 * ```
 */
export function classC(ip: string): string {
  const parts = ip.split('.');
  return parts.length === 4 ? parts.slice(0, 3).join('.') : ip;
}

/** Prepared inserts for one database. */
export interface DatasetWriter {
  link(link: LinkInput): void;
  domain(domain: DomainInput): void;
  page(page: TargetPageInput): void;
  keyword(snapshot: KeywordSnapshotInput): void;
}

/**
 * Prepared inserts; call inside a transaction for speed.
 *
 * @example
 * ```ts
 * const write = datasetWriter(store.db, tldts);
 * store.db.transaction(() => write.link(link))();
 * ```
 */
export function datasetWriter(db: Database, parser: DomainParser): DatasetWriter {
  const link = db.prepare(
    `INSERT INTO links (${LINK_COLUMNS.join(', ')}, ip_class_c, target_host, target_domain, target_path)
     VALUES (${placeholders(LINK_COLUMNS.length + 4)})`,
  );
  const domain = db.prepare('INSERT OR REPLACE INTO domains (domain, ip_address, country, domain_score) VALUES (?, ?, ?, ?)');
  const page = db.prepare(
    `INSERT OR REPLACE INTO target_pages (host, path, url, title, response_code, page_score, external_links_count, internal_links_count)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const keyword = db.prepare(
    `INSERT OR REPLACE INTO keyword_metrics (keyword, country, month, snapshot_at, search_volume, cpc, competitive_density,
       keyword_difficulty, number_of_results, intents, serp_features, trends) VALUES (${placeholders(12)})`,
  );
  const partsOf = (url: string) => {
    const parts = splitUrl(url, parser);
    if (!parts) throw new Error(`Not a URL with a host: ${url}`);
    return parts;
  };
  return {
    link: (input) => {
      const parts = partsOf(input.target_url);
      link.run(...LINK_COLUMNS.map((c) => toDb(input[c])), classC(input.ip_address), parts.host, parts.domain, parts.path);
    },
    domain: (input) => domain.run(input.domain, input.ip_address, input.country, input.domain_score),
    page: (input) => {
      const parts = partsOf(input.url);
      page.run(parts.host, parts.path, input.url, input.title, input.response_code, input.page_score, input.external_links_count, input.internal_links_count);
    },
    keyword: (s) =>
      keyword.run(
        normalizeKeyword(s.keyword), s.country, s.month, s.snapshot_at, s.search_volume, s.cpc, s.competitive_density,
        s.keyword_difficulty, s.number_of_results, JSON.stringify(s.intents), JSON.stringify(s.serp_features), JSON.stringify(s.trends),
      ),
  };
}
