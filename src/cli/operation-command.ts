/**
 * `backlink-query <operation> <target> [options]`: one command per operation of the catalogue,
 * named as the last segment of its path, with options generated from the operation's parameters.
 *
 * @module
 * @internal
 */
import { OPERATION_NAMES, operations, type OperationName } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import type { Client } from '../client/client.js';
import { isHttpError } from '../client/errors.js';
import { normalizeFilter } from '../client/local-filter.js';
import { checkParams, returnedFields } from '../client/params.js';
import type { PaginationEnd } from '../client/types.js';
import { estimateUntyped, formatUnits } from '../client/units.js';
import { isFilterError, isParameterError } from '../errors/filter-error.js';
import { DEFAULT_MAX_LIMIT } from '../catalogue/parameters.js';
import { integerOption, parseCommandArgs, stringOption, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type CliIo, type Command } from './command.js';
import { fieldsPointer, isFieldCode } from './fields-command.js';
import { confirmCost, DEFAULT_CONFIRM_ABOVE } from './confirm.js';
import { connectedClient } from './connection.js';
import { operationHelp } from './operation-help.js';
import { optionName, optionParams, optionTable, paramsFromArgs, targetParam } from './operation-options.js';
import { defaultFormat, delimiterOption, listWriter, OUTPUT_FORMATS, writeRecord, type OutputFormat, type OutputStyle } from './output.js';
import { createProgress } from './progress.js';
import { describeHttpFailure, sentence } from '../client/failure-text.js';
import { flushed, outputClosed } from './node-io.js';
import { counted, painter } from './style.js';

type Row = Record<string, unknown>;

/** The settings of one run, from options and environment. */
interface RunSettings {
  readonly format: OutputFormat;
  /** The CSV delimiter and the table's styles. */
  readonly style: OutputStyle;
  readonly all: boolean;
  readonly maxRows: number | undefined;
  readonly maxUnits: number | undefined;
  readonly confirmAbove: number;
  readonly yes: boolean;
}

function settingsOf(operation: OperationName, parsed: ParsedArgs, io: CliIo): RunSettings {
  const format = stringOption(parsed.values, 'format') ?? defaultFormat(io.stdout);
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(', ')}, not ${JSON.stringify(format)}.`);
  const delimiter = delimiterOption(stringOption(parsed.values, 'delimiter'));
  if (delimiter !== undefined && format !== 'csv') throw new UsageError(`--delimiter sets the CSV delimiter; add --format csv (the output is ${format}).`);
  return {
    format: format as OutputFormat,
    style: { ...(delimiter !== undefined && { delimiter }), paint: painter(io.stdout, io.env), fractions: fractionsOf(operation) },
    all: parsed.values['all'] === true,
    maxRows: integerOption(parsed.values, 'max-rows', 0),
    maxUnits: integerOption(parsed.values, 'max-units', 0),
    confirmAbove: integerOption(parsed.values, 'confirm-above', 0) ?? DEFAULT_CONFIRM_ABOVE,
    yes: parsed.values['yes'] === true,
  };
}

/** The fields of the operation's record of type `number` (not integer): the table rounds them. */
function fractionsOf(operation: OperationName): ReadonlySet<string> {
  const record = operations[operation].record as Readonly<Record<string, { type: string }>>;
  return new Set(Object.keys(record).filter((field) => record[field]!.type === 'number'));
}

/** A parameter as the command line sets it: `<url>` for the target, `--order-by` for `order_by`. */
function whereOf(operation: OperationName, parameter: string): string {
  const base = parameter.replace(/\[\d+\]$/, '');
  if (base === targetParam(operation).name) return `<${base}>`;
  return optionParams(operation).some(([name]) => name === base) ? `--${optionName(base)}` : parameter;
}

/**
 * The largest `limit` the service accepts unless configured otherwise (docs/operations.md). The
 * interface itself shows no maximum and a server may allow more, so only the cost question uses it.
 */
const DOCUMENTED_MAX_LIMIT = DEFAULT_MAX_LIMIT;

/**
 * Checks the parameters now, with the client's own rules, so a mistake is reported before any
 * question about cost. Without `--yes`, a `--limit` above the service's documented maximum is
 * such a mistake too: the cost of a call the service would refuse is not worth asking about
 * (with `--yes` the call is sent, and a server configured for more answers it).
 */
function checkFirst(operation: OperationName, params: Row, settings: RunSettings): void {
  try {
    checkParams(operation, params, Date.now(), normalizeFilter);
  } catch (error) {
    if (!isParameterError(error)) throw error;
    const pointer = isFieldCode(error.code) ? ` ${fieldsPointer(operation)}` : '';
    throw new UsageError(`${whereOf(operation, error.parameter)} (${error.code}): ${sentence(error.message)}${pointer}`);
  }
  const limit = params['limit'];
  if (!settings.yes && typeof limit === 'number' && limit > DOCUMENTED_MAX_LIMIT) {
    throw new UsageError(
      `--limit (too_large): limit must be at most ${DOCUMENTED_MAX_LIMIT} (the service's maximum unless it is configured otherwise), not ${limit}; pass --yes to send it anyway.`,
    );
  }
}

/** The worst case of the whole run: one call, or every page up to the caps (unbounded without caps). */
function estimateRun(operation: OperationName, params: Row, settings: RunSettings): number {
  const specs = operations[operation].params as Readonly<Record<string, ParamSpec>>;
  if (!settings.all || !('offset' in specs)) {
    const limited = settings.all && settings.maxRows !== undefined && 'limit' in specs ? { ...params, limit: settings.maxRows } : params;
    return estimateUntyped(operation, limited);
  }
  const byRows = settings.maxRows === undefined ? Infinity : operations[operation].price.units * settings.maxRows;
  return Math.min(byRows, settings.maxUnits ?? Infinity);
}

/** Column order: the `--fields` list, else the record's order of the fields present. */
function columnsFor(operation: OperationName, params: Row): (rows: readonly Row[]) => readonly string[] {
  return (rows) => {
    if (Array.isArray(params['fields'])) return params['fields'] as string[];
    if (rows.length === 0) return returnedFields(operation, params);
    const present = new Set(rows.flatMap((row) => Object.keys(row)));
    const known = Object.keys(operations[operation].record).filter((f) => present.delete(f));
    return [...known, ...present];
  };
}

async function runOnce(client: Client, operation: OperationName, params: Row, settings: RunSettings, io: CliIo): Promise<void> {
  // The parameters were built from the catalogue at run time: the call by name, checked at run time.
  const { data, units } = await client.callOperation(operation, params);
  const columns = columnsFor(operation, params);
  if (Array.isArray(data)) {
    const writer = listWriter(settings.format, io.stdout, columns, settings.style);
    for (const row of data) {
      writer.row(row);
      await flushed(io.stdout);
      // The reader has gone (`| head`): what it did not read is not wanted, nor is the summary.
      if (outputClosed(io.stdout)) return;
    }
    writer.end();
  } else {
    writeRecord(settings.format, io.stdout, data, columns([data]), settings.style);
  }
  await flushed(io.stdout);
  if (outputClosed(io.stdout)) return;
  const rows = Array.isArray(data) ? `${counted(data.length, 'row')} · ` : '';
  io.stderr.write(`${rows}${counted(units, 'unit')}\n`);
}

const STOP_REASONS: Readonly<Record<PaginationEnd['reason'], string>> = {
  'short-page': 'last page reached',
  total: 'all rows read',
  'max-rows': '--max-rows reached',
  budget: '--max-units reached',
  'single-page': 'one page',
};

async function runAll(client: Client, operation: OperationName, params: Row, settings: RunSettings, io: CliIo): Promise<void> {
  const writer = listWriter(settings.format, io.stdout, columnsFor(operation, params), settings.style);
  const progress = createProgress(io.stderr, settings.maxRows);
  // With --all, --limit is the page size.
  const { limit, ...rest } = params;
  const options = { ...(settings.maxRows !== undefined && { maxRows: settings.maxRows }), ...(typeof limit === 'number' && { pageSize: limit }) };
  const pages = client.paginateOperation(operation, rest, options);
  let rows = 0;
  let next = await pages.next();
  while (!next.done) {
    writer.row(next.value);
    await flushed(io.stdout);
    // The reader has gone (`| head`, less quit): stop before the next page is asked for (and
    // paid), and end quietly, as a program does when its reader stops.
    if (outputClosed(io.stdout)) return progress.done();
    progress.update(++rows, client.unitsSpent);
    next = await pages.next();
  }
  progress.done();
  writer.end();
  await flushed(io.stdout);
  if (outputClosed(io.stdout)) return;
  const end = next.value;
  io.stderr.write(`${counted(end.rows, 'row')} · ${counted(end.units, 'unit')} · ${counted(end.pages, 'page')} (${STOP_REASONS[end.reason]})\n`);
}

function operationCommand(operation: OperationName): Command {
  const help = operationHelp(operation);
  const options = optionTable(operation);
  return {
    name: operation,
    summary: operations[operation].doc,
    help,
    options,
    describeError: (error) => {
      if (isHttpError(error)) return describeHttpFailure(error, (parameter) => whereOf(operation, parameter));
      // A filter naming an unknown field: its issues, then where the fields are listed.
      if (isFilterError(error) && error.issues.some((issue) => isFieldCode(issue.code))) return `${error.message}\n${fieldsPointer(operation)}`;
      return undefined;
    },
    async run(args, io) {
      const parsed = parseCommandArgs(args, options);
      if (parsed.values['help'] === true) {
        io.stdout.write(help);
        return EXIT.ok;
      }
      const settings = settingsOf(operation, parsed, io);
      const params = paramsFromArgs(operation, parsed);
      if (settings.all && operations[operation].shape !== 'list') throw new UsageError(`--all pages through list operations; ${operation} returns one record.`);
      checkFirst(operation, params, settings);
      const client = connectedClient(parsed.values, io.env, settings.maxUnits).client;
      await confirmCost(estimateRun(operation, params, settings), settings.confirmAbove, { yes: settings.yes, bounded: settings.maxUnits !== undefined }, io);
      await (settings.all ? runAll : runOnce)(client, operation, params, settings, io);
      return EXIT.ok;
    },
  };
}

/** One command per operation, in the interface's order. @internal */
export const operationCommands: readonly Command[] = OPERATION_NAMES.map(operationCommand);
