/**
 * Differential property test on mysql: the lowered SQL selects exactly the rows the evaluator
 * selects, for generated datasets and filters of every filterable operation.
 */
import { defineDifferentialSuite } from './define-suite.js';

defineDifferentialSuite('mysql');
