/**
 * The fast-check arbitraries of `backlink-query/testing`, for fuzzing code that produces or
 * consumes filters, such as your own endpoint. The entry itself is src/test-service/index.ts,
 * which adds the test service (above the server, which this layer may not import). fast-check is
 * a peer dependency of this entry only; without it, importing the entry throws an error whose
 * message says `npm install fast-check`.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { filterTextArbitrary, invalidFilterArbitrary } from 'backlink-query/testing';
 * fc.assert(fc.property(filterTextArbitrary('links'), (text) => myService.accepts(text)));
 * fc.assert(fc.property(invalidFilterArbitrary('links'), ({ text, code }) => myService.rejects(text, code)));
 * ```
 *
 * @module
 */
export {
  conditionArbitrary,
  filterAstArbitrary,
  filterCaseArbitrary,
  filterTextArbitrary,
  type FilterArbitraryOptions,
  type FilterCase,
  type FilterOperationName,
  type FilterTextOptions,
  type FieldValuePools,
  type LiteralPools,
} from './filters.js';
export { invalidFilterArbitrary, type InvalidFilterCase, type InvalidFilterOptions } from './invalid.js';
export {
  datasetArbitrary,
  recordArbitrary,
  valuePools,
  type DatasetArbitraryOptions,
  type RecordArbitraryOptions,
  type ValuePools,
} from './records.js';
