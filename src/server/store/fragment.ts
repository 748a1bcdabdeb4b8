/**
 * A tiny tagged template for SQL with positional parameters: values become `?` and are bound in
 * order; nested fragments are spliced in with their own parameters. Identifiers come only from the
 * catalogue and are still quoted.
 *
 * @module
 * @internal
 */

/** SQL text and its parameters, in order. */
export interface Fragment {
  readonly sql: string;
  readonly params: readonly unknown[];
}

const isFragment = (value: unknown): value is Fragment =>
  typeof value === 'object' && value !== null && 'sql' in value && 'params' in value;

/** Builds a fragment: interpolated fragments are spliced, anything else is a bound parameter. */
export function sql(strings: TemplateStringsArray, ...values: readonly unknown[]): Fragment {
  let text = strings[0]!;
  const params: unknown[] = [];
  values.forEach((value, i) => {
    if (isFragment(value)) {
      text += value.sql;
      params.push(...value.params);
    } else {
      text += '?';
      params.push(value);
    }
    text += strings[i + 1]!;
  });
  return { sql: text, params };
}

/** Raw SQL text with no parameters (only for text written in this package). @internal */
export const raw = (text: string): Fragment => ({ sql: text, params: [] });

/** A quoted identifier. @internal */
export const ident = (name: string): Fragment => raw(`"${name.replace(/"/g, '""')}"`);

/** Fragments joined by a separator. @internal */
export function join(parts: readonly Fragment[], separator: string): Fragment {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}

/**
 * The fragment's text with each `?` replaced by the placeholder a driver expects (`$1`, `$2`, ...
 * for PostgreSQL). Only `?` written by this package's own SQL exists in the text: values are never
 * part of it, so no `?` can come from input.
 */
export function numbered(fragment: Fragment, placeholder: (index: number) => string): string {
  let index = 0;
  return fragment.sql.replace(/\?/g, () => placeholder(++index));
}
