/**
 * Mutants of what stands between a call and the store: the units ledger (`plugins/ledger.ts`),
 * admission (`plugins/guard.ts`, `plugins/rate-limiter.ts`) and the workers' shared accounts
 * (`server/cluster.ts`).
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

export const PLUGINS_MUTANTS: readonly Mutant[] = [];
