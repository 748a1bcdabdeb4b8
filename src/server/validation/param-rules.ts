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
 * The value of one raw query-string text for its rule, before the shared rules check it.
 *
 * @example
 * ```ts
 * readWireValue('limit', { kind: 'integer', required: false, min: 1, doc: '' }, '5');   // { value: 5 }
 * readWireValue('urls', operations.matrix.params.urls, 'a.com, b.com');                // { value: ['a.com', ' b.com'] }
 * readWireValue('limit', { kind: 'integer', required: false, min: 1, doc: '' }, '+5');  // { issue: { rule: 'not_an_integer', ... } }
 * ```
 */
export function readWireValue(name: string, spec: ParamSpec, raw: string): WireValue {
  switch (spec.kind) {
    case 'string-list':
    case 'fields':
      return { value: raw.split(',') };
    case 'integer':
      if (INTEGER.test(raw) || DECIMAL.test(raw)) return { value: Number(raw) };
      return { issue: parameterIssue.not_an_integer(name, raw) };
    default:
      return { value: raw };
  }
}
