/**
 * fast-check, the optional peer of `backlink-query/testing`, loaded with a top-level
 * `await import()` so that a missing one is named with the command that installs it (see
 * `../peers.ts`). The CommonJS build uses `optional-peer.cjs.ts` instead (tsup.config.ts).
 *
 * @module
 * @internal
 */
import type * as FastCheck from 'fast-check';
import { importPeer } from '../peers.js';

/** The fast-check module. @internal */
export const fc: typeof FastCheck = await importPeer('backlink-query/testing', 'fast-check', () => import('fast-check'));
