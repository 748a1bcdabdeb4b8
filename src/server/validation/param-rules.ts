/**
 * The query string's side of the parameter rules: each raw text becomes the value the shared
 * rules of `catalogue/rules.ts` check (lists split on commas, integers read from digits). The only
 * rules decided here are the ones about text: an integer not written in digits (`not_an_integer`).
 * None knows any operation by name.
 *
 * @module
 * @internal
 */
import type { ParamSpec } from '../../catalogue/parameters.js';
import { parameterIssue, type ParameterIssue } from '../../catalogue/rules.js';

/** Result of reading one raw value. */
export type WireValue = { readonly value: unknown } | { readonly issue: ParameterIssue };

/** Digits with an optional minus sign: the integers of the query string. */
const INTEGER = /^-?\d+$/;
/** A decimal number: read as the number, which the shared rule then refuses as not whole. */
const DECIMAL = /^-?\d+\.\d+$/;

/**
 * The value of one raw query-string text for its rule, before the shared rules check it. An
 * integer the number type cannot hold exactly (beyond 2^53 - 1, or digits after the point that
 * the number would round away) is refused here, with the text as given: read as a number, the
 * message would show it rounded (`9223372036854775807` as `9223372036854776000`).
 *
 * @example
 * ```ts
 * readWireValue('limit', { kind: 'integer', required: false, min: 1, doc: '' }, '5');   // { value: 5 }
 * readWireValue('urls', operations.matrix.params.urls, 'a.com, b.com');                // { value: ['a.com', ' b.com'] }
 * readWireValue('limit', { kind: 'integer', required: false, min: 1, doc: '' }, '+5');  // { issue: { rule: 'not_an_integer', ... } }
 * ```
 */
export function readWireValue(name: string, spec: ParamSpec, raw: string, maxLimit?: number): WireValue {
  switch (spec.kind) {
    case 'string-list':
    case 'fields':
      return { value: raw.split(',') };
    case 'integer': {
      if (!INTEGER.test(raw) && !DECIMAL.test(raw)) return { issue: parameterIssue.not_an_integer(name, raw) };
      const value = Number(raw);
      if (Math.abs(value) > Number.MAX_SAFE_INTEGER) {
        const max = spec.serverMaximum && maxLimit !== undefined ? maxLimit : Number.MAX_SAFE_INTEGER;
        return { issue: value < 0 ? parameterIssue.too_small(name, spec.min, raw) : parameterIssue.too_large(name, max, raw) };
      }
      // `1.00000000000000000001` is 1 as a number: a fraction the number lost is still a fraction.
      if (Number.isInteger(value) && /\.\d*[1-9]/.test(raw)) return { issue: parameterIssue.not_an_integer(name, raw) };
      return { value };
    }
    default:
      return { value: raw };
  }
}
