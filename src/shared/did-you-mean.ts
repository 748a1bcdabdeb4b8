/**
 * The one wording of "did you mean" (apart from `suggest`'s search, so that a module that only
 * writes messages, as the client's first chunk does, carries no edit distance).
 *
 * @module
 * @internal
 */

/**
 * The end of a message that may offer a name: `; did you mean links?` or, with nothing close, `end`
 * (default `.`). The one wording of "did you mean" in the package, in every surface (CLI, filter
 * issues, parameter rules, server details, MCP tools): the name bare, as it is to be typed, never
 * quoted (`--limit`, `links`, `domain_score`, `filter check`).
 */
export function didYouMean(hint: string | undefined, end = '.'): string {
  return hint === undefined ? end : `; did you mean ${hint}?`;
}
