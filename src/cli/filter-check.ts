/**
 * `backlink-query filter check "<filter>" --operation <op> [--targets N] [--format text|json]`:
 * checks a filter for an operation and prints its canonical form, or every issue with a caret
 * under it. `--json` is kept as the alias of `--format json` it was before `--format` existed.
 *
 * Unlike the operations, the default does not follow the terminal: the text is already one line a
 * script can take (`canonical=$(backlink-query filter check ...)`), and the exit code says valid or not.
 *
 * @module
 * @internal
 */
import { OPERATION_NAMES, type OperationName } from '../catalogue/operations.js';
import { fieldsPointer } from './fields-command.js';
import { isParameterError } from '../errors/filter-error.js';
import { formatIssues, MAX_FORMATTED_ISSUES } from '../errors/format.js';
import { printFilter } from '../print/printer.js';
import { safeParseFilter, type ParseResult } from '../syntax/parse.js';
import { integerOption, parseCommandArgs, stringOption, UsageError } from './args.js';
import { sentence } from '../client/failure-text.js';
import { EXIT, type CliIo, type Command } from './command.js';
import { readAll } from './node-io.js';

const HELP = `Usage: backlink-query filter check <filter> [--operation <op>] [--targets N] [--format text|json]

Checks a filter of the service's filter language. Prints the canonical form when the filter is
valid, or each issue with a caret under its place when it is not (the first 10; --format json
lists all).

Arguments:
  <filter>            The filter text; "-" reads it from standard input, exactly as given
                      (nothing is trimmed: a trailing newline is part of the filter).

Options:
  --operation <op>    The operation the filter is for: ${OPERATION_NAMES.join(', ')}.
                      Without it only the syntax and the limits are checked.
  --targets <N>       For matrix: the number of targets (1-6), which bounds backlinks_counts[n].
  -f, --format <fmt>  text (default, also when piped: the canonical form or the issues) or json:
                      {"ok":true,"canonical":...,"ast":...} or {"ok":false,"issues":[...]}.
  --json              The same as --format json.
  -h, --help          Show this help.

Exit codes: 0 valid, 1 invalid, 2 bad usage (unknown operation, bad --targets, bad --format,
missing filter).

Example:
  backlink-query filter check "domain_score > 50 AND anchor like '%seo%'" --operation links
`;

const OPTIONS = {
  operation: { type: 'string' },
  targets: { type: 'string' },
  format: { type: 'string', short: 'f' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The `filter check` command. @internal */
export const filterCheckCommand: Command = {
  name: 'filter check',
  summary: 'Check a filter and print its canonical form or its issues',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (values['help'] === true) {
      io.stdout.write(HELP);
      return EXIT.ok;
    }
    if (positionals.length === 0) throw new UsageError('Missing the filter to check (use "-" to read it from standard input).');
    if (positionals.length > 1) throw new UsageError(`Expected one filter, got ${positionals.length} arguments; quote the filter.`);
    const operation = stringOption(values, 'operation');
    const targets = integerOption(values, 'targets', 0);
    if (targets !== undefined && operation === undefined) throw new UsageError('--targets needs --operation matrix.');
    const format = formatOf(stringOption(values, 'format'), values['json'] === true);
    const text = positionals[0] === '-' ? await readAll(io.stdin) : positionals[0]!;
    const result = check(text, operation, targets);
    report(result, text, format === 'json', io);
    // Where no close name is offered, where the fields are listed. (Not after a suggestion: this
    // output is the command's result, which the README's quick start shows as it stands.)
    if (!result.ok && format !== 'json' && operation !== undefined && result.issues.some((issue) => issue.code === 'unknown_field' && issue.suggestion === undefined)) {
      io.stdout.write(`${fieldsPointer(operation as OperationName)}\n`);
    }
    return result.ok ? EXIT.ok : EXIT.failure;
  },
};

/** The formats of `filter check`. @internal */
export const FILTER_CHECK_FORMATS = ['text', 'json'] as const;

/** `--format`, with `--json` as its alias; both at once must agree. */
function formatOf(format: string | undefined, json: boolean): (typeof FILTER_CHECK_FORMATS)[number] {
  if (format !== undefined && !(FILTER_CHECK_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${FILTER_CHECK_FORMATS.join(', ')}, not ${JSON.stringify(format)}.`);
  }
  if (json && format === 'text') throw new UsageError('--json means --format json; it cannot be used with --format text.');
  return json ? 'json' : ((format ?? 'text') as (typeof FILTER_CHECK_FORMATS)[number]);
}

function check(text: string, operation: string | undefined, targets: number | undefined): ParseResult {
  try {
    return safeParseFilter(text, { ...(operation !== undefined && { operation }), ...(targets !== undefined && { targets }) });
  } catch (error) {
    // An unknown operation or a bad target count is the caller's usage, not the filter's fault.
    if (isParameterError(error)) throw new UsageError(sentence(error.message));
    throw error;
  }
}

function report(result: ParseResult, text: string, json: boolean, io: CliIo): void {
  if (json) {
    const body = result.ok ? { ok: true, canonical: printFilter(result.filter), ast: result.filter } : { ok: false, issues: result.issues };
    io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  } else if (result.ok) {
    io.stdout.write(`${printFilter(result.filter)}\n`);
  } else {
    const more = result.issues.length > MAX_FORMATTED_ISSUES ? ' Use --format json to list them all.' : '';
    io.stdout.write(`${formatIssues(result.issues, text)}${more}\n`);
  }
}
