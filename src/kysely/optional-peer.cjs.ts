/**
 * The CommonJS build's `optional-peer.ts` (tsup.config.ts swaps it in): CommonJS has no top-level
 * await, so Kysely is loaded with `require()`, with the same message when it is missing.
 *
 * @module
 * @internal
 */
import type * as Kysely from 'kysely';
import { requirePeer } from '../peers.js';

/** The kysely module. @internal */
export const kysely: typeof Kysely = requirePeer('backlink-query/kysely', 'kysely', () => require('kysely') as typeof Kysely);
