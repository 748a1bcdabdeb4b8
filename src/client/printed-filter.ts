/**
 * The `filter` of a call with `validation: 'server'`: text as written, an AST or a builder
 * result printed (in the shortest quotes), nothing validated. Loaded by the client on the first
 * call that passes an AST or a builder result.
 *
 * @module
 * @internal
 */
import { printFilter } from '../print/printer.js';
import { isBuilder, isFilterNode, notAFilter, sendAsWritten, type FilterEncoder } from './filter-param.js';

/**
 * Prints an AST or a builder result; passes text on as written.
 *
 * @example
 * ```ts
 * printedFilter('links', { toAst: () => parseFilter("anchor = 'it\\'s'") }, {}); // `anchor = "it's"`
 * ```
 * @internal
 */
export const printedFilter: FilterEncoder = (operation, value, params) => {
  if (typeof value === 'string') return sendAsWritten(operation, value, params);
  const ast = isBuilder(value) ? value.toAst() : value;
  if (!isFilterNode(ast)) throw notAFilter();
  return printFilter(ast, { quotes: 'shortest' });
};
