/**
 * Differential property test on clickhouse: the lowered SQL selects exactly the rows the evaluator
 * selects, for generated datasets and filters of every filterable operation. The server is
 * Debian's ClickHouse 18.16, without query parameters, so filters are lowered by the
 * `clickhouse-literals` dialect (DIALECT_OF in harness.ts). There is no linguistic variant:
 * ClickHouse has no collations (LINGUISTIC in test/helpers/engines.ts).
 */
import { defineDifferentialSuite } from './define-suite.js';

defineDifferentialSuite('clickhouse');
