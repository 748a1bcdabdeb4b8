/**
 * The differential check can fail: a naive lowering (the engine's own `=`, `<` and `LIKE`, no
 * collation, no escaping) is caught on SQLite (LIKE ignores ASCII case, `_` is a wildcard) and on
 * MariaDB (the default collation ignores case and trailing spaces), with a report naming the
 * filter and the rows.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { FilterNode } from '../../src/ast/nodes.js';
import { visit, type FilterVisitor } from '../../src/ast/visitor.js';
import { openEngine, type EngineName, type EngineSession } from '../helpers/engines.js';
import { ENGINE_TRAITS } from '../helpers/engines-tables.js';
import { caseArbitrary, checkCase, TablePool, type Lowering } from './harness.js';

/** What a hurried implementation writes: the engine's defaults for everything. */
function naiveLowering(engine: EngineName): Lowering {
  const { quote, placeholder } = ENGINE_TRAITS[engine];
  return (filter) => {
    const parameters: unknown[] = [];
    const bind = (value: unknown) => {
      parameters.push(typeof value === 'boolean' ? Number(value) : value);
      return placeholder(parameters.length);
    };
    const naive: FilterVisitor<string> = {
      Or: (node) => `(${node.operands.map((o) => visit(naive, o)).join(' OR ')})`,
      And: (node) => `(${node.operands.map((o) => visit(naive, o)).join(' AND ')})`,
      Comparison: (node) => `${quote(node.field.name)} ${node.operator} ${bind(node.value.value)}`,
      Like: (node) => `${quote(node.field.name)} ${node.negated ? 'NOT LIKE' : 'LIKE'} ${bind(node.pattern.value)}`,
    };
    return { sql: visit(naive, filter as FilterNode), parameters };
  };
}

describe('the differential check catches a naive lowering', () => {
  const sessions: EngineSession[] = [];
  afterAll(async () => {
    for (const session of sessions) await session.close();
  });

  it.each([['sqlite'], ['mysql']] as [EngineName][])('on %s', async (engine) => {
    const session = await openEngine(engine);
    sessions.push(session);
    const tables = new TablePool(session, `bq_sense_${process.pid}`);
    const property = fc.asyncProperty(caseArbitrary('anchors'), async (testCase) => {
      await checkCase(session, tables, 'anchors', 'columns', testCase, naiveLowering(engine));
    });
    const failure = await fc.assert(property, { numRuns: 200, seed: 42 }).then(
      () => undefined,
      (error: unknown) => error as Error & { cause?: Error },
    );
    // fast-check reports the seed and the shrunk case; the cause is the harness's mismatch report.
    expect(failure?.message).toMatch(/seed: 42/);
    expect(failure?.cause?.message).toMatch(/^\w+ and the evaluator disagree on: .+\nsql: /);
    await tables.dropAll();
  });
});
