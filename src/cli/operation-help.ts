/**
 * The `--help` text of an operation command, written from the catalogue.
 *
 * @module
 * @internal
 */
import { fieldListOf } from '../catalogue/field-list.js';
import { operations, type OperationName } from '../catalogue/operations.js';
import { DEFAULT_CONFIRM_ABOVE } from './confirm.js';
import { parameterHelp, targetParam } from './operation-options.js';

const EXAMPLE_TARGETS: Readonly<Record<string, string>> = {
  url: 'example.com',
  domain: 'example.com',
  urls: 'example.com,example.org',
  keyword: '"running shoes"',
};

/**
 * The operation's fields, one line each: name, type, and what may use it (`filter` as a filter
 * names it, `sort` for --order-by); the meanings are in `backlink-query fields <operation>`.
 */
function fieldsHelp(operation: OperationName): string {
  const fields = fieldListOf(operation);
  const width = Math.max(...fields.map((field) => field.name.length)) + 2;
  const lines = fields.map((field) => {
    const uses = [field.filter === null ? '' : field.filter === field.name ? 'filter' : `filter as ${field.filter}`, field.sort ? 'sort' : ''].filter((use) => use !== '');
    return `  ${field.name.padEnd(width)}${field.type.padEnd(11)}${uses.join(', ')}`.trimEnd();
  });
  return `Fields (--fields; "filter": --filter may name it; "sort": --order-by may name it;
their meanings: backlink-query fields ${operation}):
${lines.join('\n')}`;
}

/** The help of one operation command. @internal */
export function operationHelp(operation: OperationName): string {
  const spec = operations[operation];
  const target = targetParam(operation);
  const price = `${spec.price.units} unit${spec.price.units === 1 ? '' : 's'} per ${spec.price.per}`;
  const list = spec.shape === 'list';
  const scope = 'scope' in spec.params ? ' --scope ROOT_DOMAIN' : 'country' in spec.params ? ' --country US' : '';
  return `Usage: backlink-query ${operation} <${target.name}> [options]

${spec.doc}. GET ${spec.path}. Price: ${price}.

Arguments:
${`  <${target.name}>`.padEnd(32)}${target.spec.doc}${target.spec.kind === 'string-list' ? ' (comma-joined or separate arguments)' : ''}

Parameters:
${parameterHelp(operation).join('\n')}

${fieldsHelp(operation)}

Output and cost:
  -f, --format <fmt>            table (aligned for people), json, ndjson, or
                                csv (semicolons and CRLF, as the service writes it);
                                default: table on a terminal, ndjson when piped or redirected
      --delimiter <char>        The CSV delimiter, one character (default ";"); with --format csv
${list ? '      --all                     Page through every row (progress on stderr when it is a terminal)\n      --max-rows <n>            With --all: stop after n rows\n' : ''}      --max-units <n>           Spend at most n units (calls that could cost more are not sent);\n                                the cap answers the cost question, as --yes does
      --confirm-above <n>       Ask before a call that may cost more than n units (default ${DEFAULT_CONFIRM_ABOVE}),
                                unless --yes or --max-units is given; without a terminal on stdin
                                the call is refused instead (exit code 4)
  -y, --yes                     Do not ask about cost
      --api-key <key>           API key (default: $BACKLINK_QUERY_API_KEY)
      --base-url <url>          Service base URL (default: $BACKLINK_QUERY_BASE_URL)
      --timeout <ms>            Per-attempt timeout (default 30000)
      --retries <n>             Retries of failed attempts (default 2)
  -h, --help                    Show this help

Example:
  backlink-query ${operation} ${EXAMPLE_TARGETS[target.name] ?? 'TARGET'}${scope}${list ? ' --format table' : ''}
`;
}
