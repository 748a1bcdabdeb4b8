/**
 * Targets: how a `url` parameter (protocol optional) becomes a host, a registrable domain and a
 * path, and how a stored link's target URL is split the same way so that both sides agree.
 *
 * @module
 */
import { targetHost } from '../catalogue/rules.js';
import type { DomainParser } from './deps.js';

/** A scope of the interface. */
export type Scope = 'ROOT_DOMAIN' | 'SUBDOMAIN' | 'SUBFOLDER' | 'PAGE';

/** A URL split into the parts scope matching uses. */
export interface UrlParts {
  /** Lower-case host, without port, user info or trailing dot. */
  readonly host: string;
  /** Registrable domain by the public suffix list; the host itself for IPs and unknown suffixes. */
  readonly domain: string;
  /** Path and query, starting with `/` (`/` when empty); the fragment is dropped. */
  readonly path: string;
}

/** A target as the store matches it. */
export interface Target extends UrlParts {
  readonly scope: Scope;
  /** The normalized target: what the scope actually matches. */
  readonly effectiveUrl: string;
  /** SUBFOLDER: the folder without its trailing slash (`''` for the whole host). */
  readonly folder: string;
}

const PROTOCOL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Splits a URL, with or without protocol, into host, registrable domain and path; `undefined`
 * when it has no usable host.
 *
 * @example
 * ```ts
 * splitUrl('https://Blog.Example.co.uk/a?b#c', tldts);
 * // { host: 'blog.example.co.uk', domain: 'example.co.uk', path: '/a?b' }
 * ```
 */
export function splitUrl(url: string, parser: DomainParser): UrlParts | undefined {
  const parts = splitHostPath(url);
  return parts && { ...parts, domain: parser.getDomain(parts.host) ?? parts.host };
}

/**
 * Host and path of a URL without the public suffix list; `undefined` when it has no usable host.
 *
 * @example
 * ```ts
 * splitHostPath('example.com:8080/a#b'); // { host: 'example.com', path: '/a' }
 * ```
 */
export function splitHostPath(url: string): Omit<UrlParts, 'domain'> | undefined {
  // The host exactly as the parameter rules read it (`invalid_url`), so what passes them splits here.
  const host = targetHost(url);
  if (host === undefined) return undefined;
  const rest = url.trim().replace(PROTOCOL, '');
  const end = rest.search(/[/?#]/);
  let path = end === -1 ? '/' : rest.slice(end);
  const hash = path.indexOf('#');
  if (hash !== -1) path = path.slice(0, hash);
  if (!path.startsWith('/')) path = `/${path}`;
  return { host, path };
}

/**
 * The target of a request: the URL split, and what the scope matches.
 *
 * @example
 * ```ts
 * toTarget('https://example.com/blog/', 'SUBFOLDER', tldts)?.effectiveUrl; // 'example.com/blog'
 * ```
 */
export function toTarget(url: string, scope: Scope, parser: DomainParser): Target | undefined {
  const parts = splitUrl(url, parser);
  if (!parts) return undefined;
  const pathOnly = parts.path.replace(/\?.*$/, '');
  const folder = pathOnly.replace(/\/+$/, '');
  const effective: Record<Scope, string> = {
    ROOT_DOMAIN: parts.domain,
    SUBDOMAIN: parts.host,
    SUBFOLDER: `${parts.host}${folder === '' ? '/' : folder}`,
    PAGE: `${parts.host}${parts.path}`,
  };
  return { ...parts, scope, folder, effectiveUrl: effective[scope] };
}
