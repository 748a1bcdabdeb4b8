/**
 * Checks that depend on more than one parameter: `fields` against the record, `order_by` against
 * the returned fields, targets that must have a host, the month range, and `filter` for the
 * operation and the number of targets.
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../../ast/nodes.js';
import { MAX_MATRIX_TARGETS, type OperationName, type OperationSpec } from '../../catalogue/operations.js';
import { safeParseFilter } from '../../syntax/parse.js';
import { suggest } from '../../validate/suggest.js';
import type { ErrorDetail } from '../errors.js';
import { splitHostPath } from '../target.js';

/** Parameters that name targets, which must have a host. */
const TARGET_PARAMS = ['url', 'urls', 'domain'] as const;

/**
 * The fields to return: the caller's list (known names, duplicates dropped) or the default, in
 * record order. A list operation's default also carries `url` when the catalogue's default is a
 * list without it (summary shows the url in each row).
 * @internal
 */
export function checkFields(spec: OperationSpec, raw: string | undefined, issues: ErrorDetail[]): { list: string[]; given: boolean } {
  const all = Object.keys(spec.record);
  const rule = spec.params['fields'];
  if (raw === undefined) {
    if (rule?.kind !== 'fields' || rule.default === 'all') return { list: all, given: false };
    const chosen = new Set<string>(rule.default);
    if ('url' in spec.record) chosen.add('url');
    return { list: all.filter((f) => chosen.has(f)), given: false };
  }
  const names = raw.split(',').map((name) => name.trim());
  for (const name of names) {
    if (all.includes(name)) continue;
    const hint = name === '' ? undefined : suggest(name, all);
    issues.push({
      parameter: 'fields',
      code: 'unknown_field',
      message: name === '' ? 'fields must not contain an empty name.' : `Unknown field ${name}${hint ? `; did you mean ${hint}?` : '.'}`,
      field: name,
      ...(hint ? { suggestion: hint } : {}),
    });
  }
  return { list: all.filter((f) => names.includes(f)), given: true };
}

/** `order_by`: a scalar field of the record, among the returned fields when given explicitly. @internal */
export function checkOrderBy(spec: OperationSpec, raw: string | undefined, fields: { list: string[]; given: boolean }, issues: ErrorDetail[]): string | undefined {
  const rule = spec.params['order_by'];
  if (rule?.kind !== 'order-by') return undefined;
  if (raw === undefined) return rule.default;
  const fieldSpec = Object.prototype.hasOwnProperty.call(spec.record, raw) ? spec.record[raw] : undefined;
  if (fieldSpec === undefined) {
    const hint = suggest(raw, Object.keys(spec.record));
    issues.push({ parameter: 'order_by', code: 'unknown_field', message: `Unknown field ${raw}${hint ? `; did you mean ${hint}?` : '.'}`, field: raw, ...(hint ? { suggestion: hint } : {}) });
  } else if (fieldSpec.type.endsWith('[]')) {
    issues.push({ parameter: 'order_by', code: 'not_sortable', message: `${raw} is an array and cannot be sorted by.`, field: raw });
  } else if (!fields.list.includes(raw)) {
    issues.push({ parameter: 'order_by', code: 'not_returned', message: `order_by must be one of the returned fields (${fields.list.join(', ')}).`, field: raw });
  }
  return raw;
}

/** Every target must have a host. @internal */
export function checkTargets(values: Map<string, unknown>, issues: ErrorDetail[]): void {
  for (const name of TARGET_PARAMS) {
    const value = values.get(name);
    if (value === undefined) continue;
    const items = Array.isArray(value) ? (value as string[]) : [value as string];
    items.forEach((item, i) => {
      if (splitHostPath(item) !== undefined) return;
      const where = items.length > 1 || Array.isArray(value) ? ` (item ${i + 1})` : '';
      issues.push({ parameter: name, code: 'invalid_url', message: `${name}${where} has no valid host name.`, ...(Array.isArray(value) ? { index: i } : {}) });
    });
  }
}

/** date_from must not be after date_to. @internal */
export function checkRange(from: string | undefined, to: string | undefined, issues: ErrorDetail[]): void {
  if (from !== undefined && to !== undefined && from > to) {
    issues.push({ parameter: 'date_from', code: 'invalid_range', message: `date_from (${from}) is after date_to (${to}).` });
  }
}

/** The filter parsed and validated for the operation (and, for matrix, the number of targets). @internal */
export function checkFilter(
  operation: OperationName,
  raw: string | undefined,
  targets: number | undefined,
  issues: ErrorDetail[],
): { filter: FilterNode | null; filterText: string | null } {
  if (raw === undefined || /^[ \t\r\n]*$/.test(raw)) return { filter: null, filterText: null };
  const validTargets = targets !== undefined && targets >= 1 && targets <= MAX_MATRIX_TARGETS ? targets : undefined;
  const result = safeParseFilter(raw, { operation, targets: validTargets });
  if (result.ok) return { filter: result.filter, filterText: raw };
  for (const found of result.issues) {
    const { code, message, offset, length, line, column, field, suggestion, expected } = found;
    issues.push({ parameter: 'filter', code, message, offset, length, line, column, ...(field ? { field } : {}), ...(suggestion ? { suggestion } : {}), ...(expected ? { expected } : {}) });
  }
  return { filter: null, filterText: raw };
}
