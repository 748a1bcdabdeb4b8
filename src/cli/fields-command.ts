/**
 * `backlink-query fields <operation> [--format table|json]`: the fields of an operation, from the
 * catalogue ({@link fieldListOf}): what `--fields`, `--order-by` and `--filter` may name. The
 * errors about a field name point here.
 *
 * Like `filter check`, the default does not follow the terminal: a list to read, a table even
 * when piped; `--format json` is the form for scripts.
 *
 * @module
 * @internal
 */
import { fieldListOf } from '../catalogue/field-list.js';
import { isOperationName, OPERATION_NAMES, type OperationName } from '../catalogue/operations.js';
import { didYouMean, suggest } from '../shared/suggest.js';
import { parseCommandArgs, stringOption, UsageError } from './args.js';
import { EXIT, type Command } from './command.js';
import { painter } from './style.js';
import { renderTable } from './table.js';

/** The formats of `fields`. @internal */
export const FIELDS_FORMATS = ['table', 'json'] as const;

const HELP = `Usage: backlink-query fields <operation> [--format table|json]

Lists the fields of an operation's records, in the service's column order: the name, the type,
whether a filter may name it (--filter), whether --order-by may sort by it, and its meaning.
--fields, --order-by and --filter take these names.

Arguments:
  <operation>         ${OPERATION_NAMES.join(', ')}

Options:
  -f, --format <fmt>  table (default, also when piped) or json: an array of
                      {"name","type","filter","sort","doc"}, where filter is the name a filter
                      writes (backlinks_counts[n] for matrix's counts) or null, sort true or false.
  -h, --help          Show this help.

Example:
  backlink-query fields links
`;

const OPTIONS = {
  format: { type: 'string', short: 'f' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Where the fields of `operation` are listed, for the end of an error about a field name (no
 * period after the command, so it can be copied as it stands). @internal
 */
export const fieldsPointer = (operation: OperationName): string => `See the fields with: backlink-query fields ${operation}`;

/** Whether an error of these codes is about a field name, so {@link fieldsPointer} helps. @internal */
export const isFieldCode = (code: string): boolean => code === 'unknown_field' || code === 'not_sortable' || code === 'not_returned';

/** The operation named on the command line, or a usage error with the closest name. */
function operationArg(positionals: readonly string[]): OperationName {
  if (positionals.length === 0) throw new UsageError(`Missing the <operation>: one of ${OPERATION_NAMES.join(', ')}.`);
  if (positionals.length > 1) throw new UsageError(`Expected one <operation>, got ${positionals.length} arguments.`);
  const name = positionals[0]!;
  if (isOperationName(name)) return name;
  const hint = suggest(name, OPERATION_NAMES);
  throw new UsageError(`unknown operation ${JSON.stringify(name)}${didYouMean(hint, `; the operations are ${OPERATION_NAMES.join(', ')}.`)}`);
}

/** The `fields` command. @internal */
export const fieldsCommand: Command = {
  name: 'fields',
  summary: "List an operation's fields: types, filterable, sortable, meaning",
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (values['help'] === true) {
      io.stdout.write(HELP);
      return EXIT.ok;
    }
    const format = stringOption(values, 'format') ?? 'table';
    if (!(FIELDS_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`--format must be one of ${FIELDS_FORMATS.join(', ')}, not ${JSON.stringify(format)}.`);
    }
    const fields = fieldListOf(operationArg(positionals));
    if (format === 'json') {
      io.stdout.write(`${JSON.stringify(fields, null, 2)}\n`);
      return EXIT.ok;
    }
    const rows = fields.map((field) => ({
      field: field.name,
      type: field.type,
      filter: field.filter === null ? 'no' : field.filter === field.name ? 'yes' : `as ${field.filter}`,
      sort: field.sort ? 'yes' : 'no',
      meaning: field.doc,
    }));
    io.stdout.write(renderTable(['field', 'type', 'filter', 'sort', 'meaning'], rows, painter(io.stdout, io.env), { whole: ['meaning'] }));
    return EXIT.ok;
  },
};
