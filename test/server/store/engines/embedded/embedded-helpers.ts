/**
 * Shared by the embedded store's cache, load and column-file tests (caches, loads,
 * column-file): the fixture in an in-memory embedded store refreshed one domain per group,
 * calls made straight on the store, and the records a second load adds, with the answers they
 * change worked out by hand from fixture.ts.
 */
import { clockAt, type Clock } from '../../../../../src/server/clock.js';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import { openEmbeddedStore, type EmbeddedStore } from '../../../../../src/server/store/engines/embedded/embedded-store.js';
import type { GroupedOperation, Page, Store } from '../../../../../src/server/store/store.js';
import { toTarget, type Scope } from '../../../../../src/server/target.js';
import type { LinkInput } from '../../../../../src/server/sample/dataset.js';
import { parseFilter } from '../../../../../src/syntax/parse.js';
import * as fx from '../../../support/fixture.js';
import { loadFixture } from '../../../support/helpers.js';

const { tldts: parser } = await loadServerDeps();

export const NOW = clockAt(fx.NOW);
/** One second later: "new" starts at 2026-05-16T12:00:01, so B2 (first seen 12:00:00) is no longer new. */
export const SECOND_LATER = clockAt(new Date(fx.NOW.getTime() + 1_000));

export const target = (url: string, scope: Scope = 'ROOT_DOMAIN') => toTarget(url, scope, parser)!;
export const page = (orderBy: string, direction: 'ASC' | 'DESC' = 'DESC', limit = 10, offset = 0): Page => ({ orderBy, direction, limit, offset });

export interface Ask {
  readonly op?: GroupedOperation;
  readonly url?: string;
  readonly scope?: Scope;
  readonly filter?: string | null;
  readonly page?: Page;
  readonly clock?: Clock;
}

/** A list's total and each row's `pick` fields. */
export async function list(store: Pick<Store, 'grouped'>, ask: Ask, pick: readonly string[]): Promise<{ total: number; rows: unknown[][] }> {
  const op = ask.op ?? 'links';
  const filter = ask.filter ?? null;
  const result = await store.grouped(op, {
    target: target(ask.url ?? 'example.com', ask.scope),
    page: ask.page ?? page('page_score'),
    filter: filter === null ? null : parseFilter(filter, { operation: op }),
    clock: ask.clock ?? NOW,
  });
  return { total: result.total, rows: result.rows.map((row) => pick.map((field) => (row as Record<string, unknown>)[field])) };
}

/** The matrix of ROOT_DOMAIN (or `scope`) targets by domain: each row's domain, matches and counts in the targets' order. */
export async function matrix(store: EmbeddedStore, urls: readonly string[], scope: Scope = 'ROOT_DOMAIN'): Promise<unknown[][]> {
  const result = await store.matrix({ targets: urls.map((url) => target(url, scope)), page: page('domain', 'ASC', 100), filter: null });
  return result.rows.map((row) => [row.domain, row.matches_count, row.backlinks_counts]);
}

export async function competitors(store: EmbeddedStore): Promise<unknown[][]> {
  const result = await store.competitors({ domain: 'example.com', page: page('domain', 'ASC') });
  return result.rows.map((row) => [row.domain, row.common_refdomains]);
}

export async function withStore<T>(open: Promise<EmbeddedStore>, use: (store: EmbeddedStore) => Promise<T>): Promise<T> {
  const store = await open;
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** A fixture store in memory, refreshed one domain per group (every refresh of several domains has several groups). */
export const fixtureStore = async () => {
  const store = await openEmbeddedStore({ groupLinks: 1 });
  await loadFixture(store);
  return store;
};

export const simple = (source: string, targetUrl: string, extra: Partial<LinkInput> = {}): LinkInput => ({
  ...fx.rivalLinks[0]!,
  source_url: `https://${source}/`,
  target_url: targetUrl,
  source_domain: source,
  ip_address: '',
  ...extra,
});

/**
 * The second load of the cases below: epsilon.fr links to third.com (its fifth referring domain
 * shared with example.com: a competitor now), and kappa.com, a new referring domain, links to
 * example.com (nofollow, the highest page score, so first by page score).
 */
export const SECOND_LOAD: LinkInput[] = [
  simple('epsilon.fr', 'https://third.com/'),
  simple('kappa.com', 'https://example.com/kappa', { is_nofollow: true, page_score: 99, first_seen_at: '2026-06-10T00:00:00' }),
];

/** example.com's nofollow links by page score: L4 gamma.io (70), L2 alpha.org (45), L3 beta.net (30). */
export const NOFOLLOW = { total: 3, rows: [['https://gamma.io/review'], ['https://alpha.org/post-2'], ['https://beta.net/links']] };
/** After the second load, kappa.com's (99) first. */
export const NOFOLLOW_AFTER = { total: 4, rows: [['https://kappa.com/'], ...NOFOLLOW.rows] };
