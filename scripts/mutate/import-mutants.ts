/**
 * Mutants of loading: the import formats (`server/import/formats.ts`), the record reader
 * (`server/import/read-records.ts`) and the commands that load (`cli/server/import.ts`,
 * `cli/server/database.ts`).
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

export const IMPORT_MUTANTS: readonly Mutant[] = [];
