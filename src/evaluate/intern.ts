/**
 * Internalized strings for the constants of a compiled filter.
 *
 * @module
 */
/**
 * The same text as an internalized string. Literals come from the parser as slices of the filter
 * text; V8 compares those through an indirection on every row, while a hand-written arrow's
 * literals are internalized constants. A property key is always internalized.
 *
 * @internal
 */
export function internalize(text: string): string {
  return Object.keys({ [text]: 0 })[0] ?? text;
}
