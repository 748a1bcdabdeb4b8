/**
 * What the server adds after the shared parameter rules (`catalogue/rules.ts`) have passed: the
 * fields to return, in record order, and `filter` parsed for the operation and the number of
 * targets, its issues carried as details with the filter language's codes.
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../../ast/nodes.js';
import type { ErrorDetail } from '../../catalogue/errors.js';
import { MAX_MATRIX_TARGETS, type OperationName, type OperationSpec } from '../../catalogue/operations.js';
import { safeParseFilter } from '../../syntax/parse.js';

/**
 * The fields to return, in record order: the caller's list (already checked, duplicates dropped)
 * or the default. A default list that lacks `url` gains it when the record has one (summary shows
 * the url in each row).
 * @internal
 */
export function returnedFieldList(spec: OperationSpec, given: readonly string[] | undefined): { list: string[]; given: boolean } {
  const all = Object.keys(spec.record);
  if (given !== undefined) return { list: all.filter((f) => given.includes(f)), given: true };
  const rule = spec.params['fields'];
  if (rule?.kind !== 'fields' || rule.default === 'all') return { list: all, given: false };
  const chosen = new Set<string>(rule.default);
  if ('url' in spec.record) chosen.add('url');
  return { list: all.filter((f) => chosen.has(f)), given: false };
}

/**
 * The filter parsed and validated for the operation (and, for matrix, the number of targets); its
 * first `maxIssues` issues go to `issues`, and `truncated` says the filter has (or may have) more.
 * @internal
 */
export function checkFilter(
  operation: OperationName,
  raw: string | undefined,
  targets: number | undefined,
  issues: ErrorDetail[],
  maxIssues?: number,
): { filter: FilterNode | null; filterText: string | null; truncated: boolean } {
  if (raw === undefined || /^[ \t\r\n]*$/.test(raw)) return { filter: null, filterText: null, truncated: false };
  const validTargets = targets !== undefined && targets >= 1 && targets <= MAX_MATRIX_TARGETS ? targets : undefined;
  // A server sees the same filters again and again: the parse cache answers them (docs/filter-language.md).
  const result = safeParseFilter(raw, { operation, targets: validTargets, cache: true, ...(maxIssues === undefined ? {} : { maxIssues }) });
  if (result.ok) return { filter: result.filter, filterText: raw, truncated: false };
  for (const found of result.issues) {
    const { code, message, offset, length, line, column, field, suggestion, expected } = found;
    issues.push({ parameter: 'filter', rule: code, message, offset, length, line, column, ...(field ? { field } : {}), ...(suggestion ? { suggestion } : {}), ...(expected ? { expected } : {}) });
  }
  return { filter: null, filterText: raw, truncated: result.truncated === true };
}
