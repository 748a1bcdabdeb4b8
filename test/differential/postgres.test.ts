/**
 * Differential property test on postgres: the lowered SQL selects exactly the rows the evaluator
 * selects, for generated datasets and filters of every filterable operation.
 */
import { defineDifferentialSuite } from './define-suite.js';

defineDifferentialSuite('postgres');
