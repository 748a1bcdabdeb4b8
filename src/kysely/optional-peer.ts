/**
 * Kysely, the optional peer of `backlink-query/kysely`, loaded with a top-level `await import()`
 * so that a missing one is named with the command that installs it (see `../peers.ts`). The
 * CommonJS build uses `optional-peer.cjs.ts` instead (tsup.config.ts).
 *
 * @module
 * @internal
 */
import type * as Kysely from 'kysely';
import { importPeer } from '../peers.js';

/** The kysely module. @internal */
export const kysely: typeof Kysely = await importPeer('backlink-query/kysely', 'kysely', () => import('kysely'));
