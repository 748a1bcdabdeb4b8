/**
 * The command-line options of an operation command, generated from the catalogue's parameter
 * rules, and the conversion of parsed options into client parameters.
 *
 * @module
 * @internal
 */
import { operations, type OperationName } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { UsageError, type OptionTable, type ParsedArgs } from './args.js';
import { CONNECTION_OPTIONS } from './connection.js';

type Specs = Readonly<Record<string, ParamSpec>>;

/** Parameters that the command line does not expose: the output format decides the wire format. */
const HIDDEN_PARAMS = new Set(['format']);

/** `order_by` → `order-by`. @internal */
export const optionName = (param: string): string => param.replace(/_/g, '-');

const specsOf = (operation: OperationName): Specs => operations[operation].params as Specs;

/** The positional parameter: the first required string or string list (url, domain, urls, keyword). @internal */
export function targetParam(operation: OperationName): { name: string; spec: ParamSpec } {
  const entry = Object.entries(specsOf(operation)).find(([, s]) => s.required && (s.kind === 'string' || s.kind === 'string-list'))!;
  return { name: entry[0], spec: entry[1] };
}

/** The catalogue parameters that become `--options`. @internal */
export function optionParams(operation: OperationName): ReadonlyArray<[string, ParamSpec]> {
  const target = targetParam(operation).name;
  return Object.entries(specsOf(operation)).filter(([name]) => name !== target && !HIDDEN_PARAMS.has(name));
}

/** The options every operation command has, beside its parameters. @internal */
export const COMMON_OPTIONS = {
  format: { type: 'string', short: 'f' },
  delimiter: { type: 'string' },
  all: { type: 'boolean' },
  'max-rows': { type: 'string' },
  'max-units': { type: 'string' },
  'confirm-above': { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  ...CONNECTION_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionTable;

/**
 * The `parseArgs` table of an operation command, in the order of its help (and of completion's
 * candidates): the operation's parameters, then the common options; a parameter wins a name both
 * have. @internal
 */
export function optionTable(operation: OperationName): OptionTable {
  const table: OptionTable = {};
  for (const [name] of optionParams(operation)) table[optionName(name)] = { type: 'string' };
  for (const [name, spec] of Object.entries(COMMON_OPTIONS)) table[name] ??= spec;
  return table;
}

/** One option value as the client parameter its rule wants. */
function convert(name: string, spec: ParamSpec, raw: string): unknown {
  switch (spec.kind) {
    case 'integer':
      if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`--${optionName(name)} must be an integer, not ${JSON.stringify(raw)}.`);
      return Number(raw);
    case 'enum':
      // Case is forgiven on the command line (`--scope root_domain`); the client checks the value.
      return spec.values.find((v) => v.toLowerCase() === raw.toLowerCase()) ?? raw;
    case 'fields':
    case 'string-list':
      return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    default:
      return raw;
  }
}

/** The client parameters of a parsed command line. @internal */
export function paramsFromArgs(operation: OperationName, parsed: ParsedArgs): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const target = targetParam(operation);
  if (parsed.positionals.length === 0) throw new UsageError(`Missing the <${target.name}> argument.`);
  if (target.spec.kind === 'string-list') {
    // `comparison a.com,b.com` and `comparison a.com b.com` both work.
    params[target.name] = parsed.positionals.flatMap((p) => p.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  } else if (parsed.positionals.length > 1) {
    throw new UsageError(`Expected one <${target.name}>, got ${parsed.positionals.length} arguments.`);
  } else {
    params[target.name] = parsed.positionals[0];
  }
  for (const [name, spec] of optionParams(operation)) {
    const raw = parsed.values[optionName(name)];
    if (typeof raw === 'string') params[name] = convert(name, spec, raw);
  }
  return params;
}

/** One help line per parameter option, from the catalogue's docs. @internal */
export function parameterHelp(operation: OperationName): string[] {
  return optionParams(operation).map(([name, spec]) => {
    const listed = spec.kind !== 'enum' || spec.values.length > 6 || spec.values.every((v) => spec.doc.includes(v));
    const values = listed ? '' : ` (${spec.values.join(', ')})`;
    const required = spec.required ? ' [required]' : '';
    return `${`      --${optionName(name)} <value>`.padEnd(32)}${spec.doc}${values}${required}`;
  });
}
