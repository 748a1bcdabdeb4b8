/**
 * Mutants of what a person reads when a name is wrong or wanted: the fields list
 * (`catalogue/field-list.ts`, `backlink-query fields`, each operation's `--help`), "did you mean"
 * (`shared/suggest.ts`, `cli/args.ts`, the filter issues' hints for other languages' operators) and
 * one name per operation (the client's `metrics`, the MCP tools' former names).
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

const FIELDS_CLI = ['test/cli/fields.test.ts'];
const ERRORS_CLI = ['test/cli/errors.test.ts'];
const SUGGEST = ['test/unit/shared/suggest.test.ts'];
const OTHER_LANGUAGES = ['test/unit/errors/other-languages.test.ts'];

export const CLI_MUTANTS: readonly Mutant[] = [
  {
    name: 'fields-sort-without-order-by',
    area: 'names',
    file: 'src/catalogue/field-list.ts',
    find: 'sort: sorts && isSortableType(type),',
    replace: 'sort: isSortableType(type),',
    tests: FIELDS_CLI,
    project: 'all',
  },
  {
    name: 'fields-array-filter-as-name',
    area: 'names',
    file: 'src/catalogue/field-list.ts',
    find: "field.index === null ? field.name : `${field.name}[n]`",
    replace: 'field.name',
    tests: FIELDS_CLI,
    project: 'all',
  },
  {
    name: 'fields-pointer-after-any-filter-issue',
    area: 'names',
    file: 'src/cli/filter-check.ts',
    find: "result.issues.some((issue) => issue.code === 'unknown_field' && issue.suggestion === undefined)",
    replace: 'result.issues.length > 0',
    tests: FIELDS_CLI,
    project: 'all',
  },
  {
    name: 'fields-pointer-after-a-suggestion',
    area: 'names',
    file: 'src/cli/filter-check.ts',
    find: "issue.code === 'unknown_field' && issue.suggestion === undefined)",
    replace: "issue.code === 'unknown_field')",
    tests: FIELDS_CLI,
    project: 'all',
  },
  {
    name: 'fields-pointer-not-for-order-by-array',
    area: 'names',
    file: 'src/cli/fields-command.ts',
    find: "code === 'unknown_field' || code === 'not_sortable' ||",
    replace: "code === 'unknown_field' ||",
    tests: FIELDS_CLI,
    project: 'all',
  },
  {
    name: 'suggest-tie-first-listed',
    area: 'names',
    file: 'src/shared/suggest.ts',
    find: 'd < bestDistance || (d === bestDistance &&',
    replace: 'd < bestDistance || (false &&',
    tests: SUGGEST,
    project: 'unit',
  },
  {
    name: 'suggest-enum-case-counts',
    area: 'names',
    file: 'src/catalogue/rules.ts',
    find: 'suggest(value, values, { anyCase: true })',
    replace: 'suggest(value, values)',
    tests: ERRORS_CLI,
    project: 'all',
  },
  {
    name: 'suggest-no-reordered-words',
    area: 'names',
    file: 'src/shared/suggest.ts',
    find: "const sameWords = words.includes('_') ?",
    replace: 'const sameWords = false ?',
    tests: SUGGEST,
    project: 'unit',
  },
  {
    name: 'option-single-dash-not-read',
    area: 'names',
    file: 'src/cli/args.ts',
    find: 'if (single && Object.hasOwn(options, single[1]!)) return arg;',
    replace: 'void single;',
    tests: ERRORS_CLI,
    project: 'all',
  },
  {
    name: 'hint-double-equals-after-less',
    area: 'names',
    file: 'src/syntax/hints.ts',
    find: "!/[<>]/.test(text.charAt(offset - 2))",
    replace: 'true',
    tests: OTHER_LANGUAGES,
    project: 'unit',
  },
  {
    name: 'hint-ampersand-as-or',
    area: 'names',
    file: 'src/syntax/hints.ts',
    find: "if (/^&+$/.test(chars)) return didYouMean('AND');",
    replace: "if (/^&+$/.test(chars)) return didYouMean('OR');",
    tests: OTHER_LANGUAGES,
    project: 'unit',
  },
  {
    name: 'client-no-keyword-metrics-alias',
    area: 'names',
    file: 'src/client/client.ts',
    find: "    keywordMetrics: methods['metrics'],\n",
    replace: '',
    tests: ['test/client/operations.test.ts'],
    project: 'unit',
  },
  {
    name: 'mcp-former-tool-names-forgotten',
    area: 'names',
    file: 'src/mcp/call-tool.ts',
    find: 'name = Object.hasOwn(FORMER_TOOL_NAMES, name) ? FORMER_TOOL_NAMES[name]! : name;',
    replace: 'void FORMER_TOOL_NAMES;',
    tests: ['test/mcp/tools.test.ts'],
    project: 'all',
  },
];
