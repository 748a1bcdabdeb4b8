/**
 * The shapes a store is filled with (the generator, the import command and the test fixtures all
 * produce them), and the columns derived from a link once, when it is stored: the target's host,
 * registrable domain and path, the class C of the source IP, and the link's identity.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { RowOf } from '../../catalogue/types.js';
import type { DomainParser } from '../deps.js';
import { BoundedCache, ENTRY_BYTES, textBytes } from '../../shared/bounded-cache.js';
import { splitHostPath, splitUrl } from '../target.js';
import { StoreError } from './errors.js';

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

/** The stored columns of a link, in table order after `id`. @internal */
export const LINK_COLUMNS = [
  'link_key', 'source_url', 'target_url', 'anchor', 'redirect_url', 'source_title', 'target_title', 'image_url', 'image_alt',
  'ip_address', 'lang', 'source_size', 'external_links_count', 'internal_links_count', 'response_code', 'page_score',
  'domain_score', 'first_seen_at', 'last_seen_at', 'source_domain', 'is_nofollow', 'is_ugc', 'is_sponsored', 'is_form',
  'is_frame', 'is_image', 'is_sitewide_main', 'is_lost', 'ip_class_c', 'target_host', 'target_domain', 'target_path',
] as const;

/**
 * A link as stored: its column values in {@link LINK_COLUMNS} order, and its registrable domain
 * (whose rollups the write makes stale). An array rather than an object: a bulk load makes
 * millions of them, and copying an object of every column cost more than the rest of the
 * derivation (docs/design-store.md, "Measurements behind the store's code").
 *
 * @internal
 */
export interface LinkRow {
  readonly values: readonly unknown[];
  readonly targetDomain: string;
  readonly key: Buffer;
}

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

/**
 * The stored form of a link; throws a `StoreError` (`invalid_record`) when its target URL has no host.
 *
 * @example
 * ```ts
 * linkRow(link, tldts).targetDomain; // 'example.com'
 * ```
 */
export function linkRow(link: LinkInput, parser: DomainParser): LinkRow {
  const parts = splitHostPath(link.target_url);
  if (!parts) throw new StoreError('invalid_record', `Not a URL with a host: ${link.target_url}`);
  const key = linkKey(link);
  const targetDomain = domainOf(parts.host, parser);
  const derived: Record<string, unknown> = { link_key: key, ip_class_c: classC(link.ip_address), target_host: parts.host, target_domain: targetDomain, target_path: parts.path };
  const values = LINK_COLUMNS.map((column) => (column in derived ? derived[column] : link[column as keyof LinkInput]));
  return { values, targetDomain, key };
}

/** The estimated bytes of the registrable domains remembered by host, per parser: some hundred thousand hosts of ordinary length. */
const DOMAINS_BYTES = 16 * 2 ** 20;

// A bulk load meets the same hosts again and again; the public suffix lookup is the slow part.
const domains = new WeakMap<DomainParser, BoundedCache<string, string>>();
function domainOf(host: string, parser: DomainParser): string {
  let cache = domains.get(parser);
  if (!cache) domains.set(parser, (cache = new BoundedCache(DOMAINS_BYTES, (domain, key) => ENTRY_BYTES + textBytes(key) + textBytes(domain))));
  let domain = cache.get(host);
  if (domain === undefined) {
    domain = parser.getDomain(host) ?? host;
    cache.set(host, domain);
  }
  return domain;
}

/**
 * The host and path a target page is stored under, and the registrable domain whose rollups show
 * it; throws a `StoreError` (`invalid_record`) when its URL has no host.
 *
 * @internal
 */
export function pageParts(page: TargetPageInput, parser: DomainParser): { host: string; path: string; domain: string } {
  const parts = splitUrl(page.url, parser);
  if (!parts) throw new StoreError('invalid_record', `Not a URL with a host: ${page.url}`);
  return { host: parts.host, path: parts.path, domain: domainOf(parts.host, parser) };
}

/**
 * The form a keyword is stored and looked up in.
 *
 * @example
 * ```ts
 * normalizeKeyword('  SEO Tools '); // 'seo tools'
 * ```
 */
export function normalizeKeyword(keyword: string): string {
  return keyword.trim().toLowerCase();
}

/**
 * The identity of a stored link: the first 16 bytes of the SHA-256 of its source URL, target URL,
 * anchor and image URL. Importing a record with the same identity replaces the stored link rather
 * than adding a second one, so importing the same file twice changes nothing.
 *
 * @example
 * ```ts
 * linkKey({ source_url: 'https://a.org/', target_url: 'https://example.com/', anchor: 'x', image_url: '' }).length; // 16
 * ```
 */
export function linkKey(link: { readonly source_url: string; readonly target_url: string; readonly anchor: string; readonly image_url: string }): Buffer {
  // U+0000 cannot occur in PostgreSQL text, so it separates the parts unambiguously.
  const text = `${link.source_url}\u0000${link.target_url}\u0000${link.anchor}\u0000${link.image_url}`;
  return createHash('sha256').update(text, 'utf8').digest().subarray(0, 16);
}
