/**
 * One differential suite per engine: every filterable operation, each way the engine stores
 * `backlinks_counts`, the case budget of `budget.ts`, and a count check at the end so the suite
 * cannot pass by running nothing.
 *
 * @internal
 * @module
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type FilterableOperation } from '../../src/catalogue/operations.js';
import { LINGUISTIC, LINGUISTIC_ENGINES, openEngine, type Collation, type EngineName, type EngineSession } from '../helpers/engines.js';
import { ENGINE_TRAITS, type CountsStorage } from '../helpers/engines-tables.js';
import { assertParameters, casesPerEngine, floorOf, timeoutFor } from './budget.js';
import { caseArbitrary, checkCase, TablePool } from './harness.js';

/** The filterable operations, from the catalogue. @internal */
export const FILTERABLE = (Object.keys(operations) as (keyof typeof operations)[]).filter(
  (name): name is FilterableOperation => operations[name].filter,
);

/** One `it` of a suite. @internal */
export interface PlanEntry {
  readonly operation: FilterableOperation;
  readonly storage: CountsStorage;
}

/** Each (operation, storage) pair the engine runs; only matrix has more than one storage. @internal */
export function suitePlan(engine: EngineName): PlanEntry[] {
  return FILTERABLE.flatMap((operation): PlanEntry[] =>
    operation === 'matrix'
      ? ENGINE_TRAITS[engine].arrays.map((storage) => ({ operation, storage }))
      : [{ operation, storage: 'columns' as const }],
  );
}

/**
 * Declares the differential suite of one engine, on its default collation or on a linguistic one
 * (where a lowering that leaves text comparison to the column's collation selects wrong rows).
 *
 * @internal
 */
export function defineDifferentialSuite(engine: EngineName, collation: Collation = 'default'): void {
  if (collation === 'linguistic' && !LINGUISTIC_ENGINES.includes(engine)) throw new Error(`no linguistic suite on ${engine}: ${LINGUISTIC[engine]}`);
  const plan = suitePlan(engine);
  const total = casesPerEngine();
  const perEntry = Math.ceil(total / plan.length);
  let session: EngineSession;
  let tables: TablePool;
  let checked = 0;
  let refused = 0;

  const where = collation === 'default' ? engine : `${engine} (${LINGUISTIC[engine]})`;
  describe(`differential: ${where} returns the rows the evaluator selects`, () => {
    beforeAll(async () => {
      session = await openEngine(engine, collation);
      tables = new TablePool(session, `bq_diff_${process.pid}_${Math.random().toString(36).slice(2, 8)}`);
    });
    afterAll(async () => {
      await tables?.dropAll();
      await session?.close();
    });

    for (const { operation, storage } of plan) {
      it(
        `${operation}${operation === 'matrix' ? ` (1-6 targets, ${storage})` : ''}: ${perEntry}+ filters`,
        async () => {
          let here = 0;
          await fc.assert(
            fc.asyncProperty(caseArbitrary(operation), async (testCase) => {
              const result = await checkCase(session, tables, operation, storage, testCase);
              here += result.ran;
              refused += result.refused;
            }),
            assertParameters(perEntry),
          );
          checked += here;
          expect(here).toBeGreaterThan(0);
        },
        timeoutFor(perEntry),
      );
    }

    const floor = floorOf(total);
    it(`checked at least ${floor} generated filters on ${where}`, () => {
      // fast-check counts datasets; count the filters themselves, which is what the budget promises.
      // Filters the dialect refuses as documented (an UnsupportedError) are counted apart: they
      // did not run on the engine, so they do not count toward the budget.
      process.stderr.write(`[differential] ${where}: ${checked} filters checked on the engine, ${refused} refused as documented\n`);
      expect(checked).toBeGreaterThanOrEqual(floor);
    });
  });
}
