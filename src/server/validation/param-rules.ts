/**
 * One checker per parameter kind of the catalogue. Each takes the raw query-string value and
 * returns the typed value or the details of what is wrong; none knows any operation by name.
 *
 * @module
 * @internal
 */
import type { ParamSpec } from '../../catalogue/parameters.js';
import { suggest } from '../../validate/suggest.js';
import type { ErrorDetail } from '../errors.js';

/** Result of checking one parameter. */
export type Checked = { readonly value: unknown } | { readonly issues: readonly ErrorDetail[] };

/** What a checker may need beyond the value. */
export interface RuleContext {
  readonly parameter: string;
  /** The current month, `YYYY-MM`. */
  readonly currentMonth: string;
  /** The largest `limit` accepted. */
  readonly maxLimit: number;
}

const issue = (parameter: string, code: string, message: string, extra: Record<string, unknown> = {}): Checked => ({
  issues: [{ parameter, code, message, ...extra }],
});

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DIGITS = /^\d+$/;

type Checker<K extends ParamSpec['kind']> = (spec: Extract<ParamSpec, { kind: K }>, raw: string, ctx: RuleContext) => Checked;

const checkString: Checker<'string'> = (spec, raw, { parameter }) => {
  if (raw.length < spec.minLength) return issue(parameter, 'too_short', `${parameter} must have at least ${spec.minLength} character(s).`, { minimum: spec.minLength });
  if (raw.length > spec.maxLength) return issue(parameter, 'too_long', `${parameter} must have at most ${spec.maxLength} characters.`, { maximum: spec.maxLength });
  return { value: raw };
};

const checkStringList: Checker<'string-list'> = (spec, raw, { parameter }) => {
  const items = raw.split(',').map((item) => item.trim());
  if (items.some((item) => item.length === 0)) return issue(parameter, 'empty_item', `${parameter} must be a comma-separated list with no empty item.`);
  if (items.length < spec.minItems) return issue(parameter, 'too_few_items', `${parameter} needs at least ${spec.minItems} item(s).`, { minimum: spec.minItems });
  if (items.length > spec.maxItems) return issue(parameter, 'too_many_items', `${parameter} takes at most ${spec.maxItems} items; got ${items.length}.`, { maximum: spec.maxItems });
  const long = items.findIndex((item) => item.length > spec.itemMaxLength);
  if (long !== -1) return issue(parameter, 'too_long', `Item ${long + 1} of ${parameter} has more than ${spec.itemMaxLength} characters.`, { maximum: spec.itemMaxLength });
  return { value: items };
};

const checkEnum: Checker<'enum'> = (spec, raw, { parameter }) => {
  if (spec.values.includes(raw)) return { value: raw };
  const hint = suggest(raw, spec.values);
  const allowed = spec.values.length > 12 ? `one of ${spec.values.length} codes listed in the interface` : spec.values.join(', ');
  return issue(parameter, 'invalid_value', `${parameter} must be ${allowed}${hint ? `; did you mean ${hint}?` : '.'}`, {
    allowed: spec.values,
    ...(hint ? { suggestion: hint } : {}),
  });
};

const checkInteger = (min: number, max: number | undefined): Checker<'integer'> => (_spec, raw, { parameter }) => {
  if (!DIGITS.test(raw) || !Number.isSafeInteger(Number(raw))) {
    return issue(parameter, 'not_an_integer', `${parameter} must be a whole number written in digits.`);
  }
  const value = Number(raw);
  if (value < min) return issue(parameter, 'too_small', `${parameter} must be at least ${min}.`, { minimum: min });
  if (max !== undefined && value > max) return issue(parameter, 'too_large', `${parameter} must be at most ${max}.`, { maximum: max });
  return { value };
};

const checkMonth: Checker<'month'> = (spec, raw, { parameter, currentMonth }) => {
  const match = MONTH.exec(raw);
  if (!match || match[1] === '0000') return issue(parameter, 'invalid_month', `${parameter} must be a month written YYYY-MM.`);
  if (spec.min !== undefined && raw < spec.min) return issue(parameter, 'too_early', `${parameter} must not be before ${spec.min}.`, { minimum: spec.min });
  if (spec.maxIsCurrentMonth && raw > currentMonth) {
    return issue(parameter, 'too_late', `${parameter} must not be after the current month (${currentMonth}).`, { maximum: currentMonth });
  }
  return { value: raw };
};

/**
 * Checks one raw value against its rule. Fields, order_by and filter are checked afterwards,
 * because they depend on the other parameters; here they pass through as text.
 *
 * @example
 * ```ts
 * checkParam({ kind: 'integer', required: false, min: 1, doc: '' }, '0', ctx); // { issues: [{ code: 'too_small', ... }] }
 * ```
 */
export function checkParam(spec: ParamSpec, raw: string, ctx: RuleContext): Checked {
  switch (spec.kind) {
    case 'string':
      return checkString(spec, raw, ctx);
    case 'string-list':
      return checkStringList(spec, raw, ctx);
    case 'enum':
      return checkEnum(spec, raw, ctx);
    case 'integer':
      return checkInteger(spec.min, ctx.parameter === 'limit' ? ctx.maxLimit : undefined)(spec, raw, ctx);
    case 'month':
      return checkMonth(spec, raw, ctx);
    case 'fields':
    case 'order-by':
    case 'filter':
      return { value: raw };
  }
}
