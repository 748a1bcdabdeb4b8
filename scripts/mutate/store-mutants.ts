/**
 * Mutants of the store's newest code: the embedded store and its caches (`sized-cache.ts`, list
 * windows, the competitor graph), DuckDB's side (`duckdb/`), the matrix union (`matrix-merge.ts`),
 * `sql/run-list.ts` and `sql/competitors.ts`.
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

export const STORE_MUTANTS: readonly Mutant[] = [];
