/**
 * The typed filter builder: {@link filterFor} and the types it derives from the catalogue.
 *
 * @example
 * ```ts
 * import { filterFor } from 'backlink-query';
 * filterFor('anchors').like('anchor', '%seo%').toString(); // "anchor LIKE '%seo%'"
 * ```
 *
 * @module
 */
export { filterFor, type BuilderOptions, type DynamicFilterBuilder, type FilterBuilder, type MatrixBuilderOptions } from './filter-builder.js';
export { Filter } from './filter.js';
export type {
  AnyFilterFields,
  BuilderOperator,
  EqualityOperator,
  FilterFields,
  IndexUpTo,
  OperatorFor,
  OrderOperator,
  PatternOperator,
  ScalarFieldType,
  TextFieldOf,
  ValueFor,
} from './field-types.js';
