/**
 * Differential property test on postgres with a linguistic default collation (see LINGUISTIC in
 * test/helpers/engines.ts): the lowering must name its own binary collation, because the one the
 * columns carry ignores case and orders by language rules.
 */
import { defineDifferentialSuite } from './define-suite.js';

defineDifferentialSuite('postgres', 'linguistic');
