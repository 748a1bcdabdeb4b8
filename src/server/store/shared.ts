/**
 * Helpers every store shares: how keywords are normalized, how a stored link
 * is identified, and the rollup key of a target. None of them touches a database.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { Target } from '../target.js';

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

/**
 * The key of a target in the rollup tables (`d:` registrable domain, `h:` host, `p:` host + path),
 * or `undefined` for a SUBFOLDER target below the host, which is answered from the links.
 *
 * @example
 * ```ts
 * rollupKey(toTarget('blog.example.com/a', 'SUBDOMAIN', tldts)!); // 'h:blog.example.com'
 * ```
 */
export function rollupKey(target: Target): string | undefined {
  switch (target.scope) {
    case 'ROOT_DOMAIN':
      return `d:${target.domain}`;
    case 'SUBDOMAIN':
      return `h:${target.host}`;
    case 'PAGE':
      return `p:${target.host}${target.path}`;
    case 'SUBFOLDER':
      return target.folder === '' ? `h:${target.host}` : undefined;
  }
}
