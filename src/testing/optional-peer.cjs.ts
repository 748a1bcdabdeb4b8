/**
 * The CommonJS build's `optional-peer.ts` (tsup.config.ts swaps it in): CommonJS has no top-level
 * await, so fast-check is loaded with `require()`, with the same message when it is missing.
 *
 * @module
 * @internal
 */
import type * as FastCheck from 'fast-check';
import { requirePeer } from '../peers.js';

/** The fast-check module. @internal */
export const fc: typeof FastCheck = requirePeer('backlink-query/testing', 'fast-check', () => require('fast-check') as typeof FastCheck);
