/**
 * What each tool of `backlink-query mcp` does with its arguments, without the SDK: an operation
 * tool checks the parameters and the filter with the client's own rules, prices the call against
 * the per-call cap and the session budget, and sends it through the package's client;
 * `check-filter` and `complete-filter` answer from the filter language alone. Every failure is a
 * tool result with `isError: true` that says what went wrong, where, and what to change, with the
 * same facts in `structuredContent.error`; nothing a caller sends can end the server.
 *
 * @module
 * @internal
 */
import { isOperationName, OPERATION_NAMES, operations, type OperationName } from '../catalogue/operations.js';
import { checkParameters, type ParameterIssue } from '../catalogue/rules.js';
import { describeHttpFailure } from '../client/failure-text.js';
import type { AnyResult } from '../client/call.js';
import type { Client } from '../client/client.js';
import { isApiError, isBudgetError, type HttpError } from '../client/errors.js';
import { normalizeFilter } from '../client/local-filter.js';
import { checkParams, currentMonth } from '../client/params.js';
import { complete } from '../complete/complete.js';
import { isFilterError, isParameterError } from '../errors/filter-error.js';
import { finishIssues, formatIssues } from '../errors/format.js';
import type { FilterIssue } from '../errors/issue.js';
import { printFilter } from '../print/printer.js';
import { safeParseFilter } from '../syntax/parse.js';
import { DEFAULT_LIMITS } from '../validate/limits.js';
import { didYouMean, suggest } from '../shared/suggest.js';
import { checkCost, type CostRefusal } from './cost.js';
import { CHECK_FILTER, COMPLETE_FILTER, FORMER_TOOL_NAMES, HIDDEN_PARAMS, toolDefinitions } from './tools.js';
import { formatUnits as units } from '../client/units.js';

/** A tool's answer, as `tools/call` returns it (the SDK's `CallToolResult`, text content only). @internal */
export interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: 'text'; readonly text: string }>;
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** What the tools share for a session. @internal */
export interface ToolContext {
  /** The package's client, created with the session's `budget`. */
  readonly client: Client;
  /** The session budget as set (`--budget`); the client holds what is left. */
  readonly budget: number | undefined;
  /** Most units one call may cost (`--max-call-units`); `undefined`: no cap. */
  readonly maxCallUnits: number | undefined;
  /** A line for the log (standard error: standard output is the protocol). */
  readonly log: (line: string) => void;
}

type Args = Readonly<Record<string, unknown>>;

/** A tool error: a text for the model and the same facts as `structuredContent.error`. */
function failure(text: string, error: Readonly<Record<string, unknown>>): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { error }, isError: true };
}

/** A filter issue as plain data (only the members an issue has). */
const issueData = (issue: FilterIssue): Record<string, unknown> => ({ ...issue });

/** A parameter issue: the parameter, the rule, the message and what helps (a suggestion, bounds). */
const parameterData = (issue: ParameterIssue): Record<string, unknown> => {
  const { parameter, rule, message, ...rest } = issue;
  return { parameter, code: rule, message, ...rest };
};

function invalidParameters(tool: string, issues: readonly ParameterIssue[]): ToolResult {
  // A message with a suggestion already ends "did you mean ...?" (the rules write it); the name is
  // in structuredContent too, as `suggestion`.
  const lines = issues.map((issue) => `- ${issue.parameter} (${issue.rule}): ${issue.message}`);
  return failure(`Not sent: ${tool} was given ${issues.length === 1 ? 'an invalid parameter' : `${issues.length} invalid parameters`}:\n${lines.join('\n')}`, {
    kind: 'invalid_parameters',
    issues: issues.map(parameterData),
  });
}

function invalidFilter(tool: string, issues: readonly FilterIssue[], text: string): ToolResult {
  return failure(`Not sent: the filter of ${tool} is invalid (${issues.length} ${issues.length === 1 ? 'issue' : 'issues'}):\n${formatIssues(issues, text, { maxIssues: Infinity })}`, {
    kind: 'invalid_filter',
    parameter: 'filter',
    filter: text,
    issues: issues.map(issueData),
  });
}

/** A mistake in a parameter the rules report one at a time (`ParameterError`). */
function parameterError(error: { parameter: string; code: string; message: string }): ToolResult {
  return failure(`${error.parameter} (${error.code}): ${error.message}`, { kind: 'invalid_parameters', issues: [{ parameter: error.parameter, code: error.code, message: error.message }] });
}

/** What to do about a failure the service or the network reported. */
function serviceAdvice(status: number | undefined): string {
  if (status === 401) return 'The API key was refused: the user must start the server with a valid --api-key (or BACKLINK_QUERY_API_KEY).';
  if (status === 402) return "The key has not enough units left for this call: ask the user, or make a smaller call (a lower limit).";
  if (status === 429 || status === 503) return 'Retry later.';
  if (status !== undefined && status >= 500) return 'The service failed; retry later.';
  return 'Change what the details name and call again.';
}

/** An error of a call that reached (or tried to reach) the service, or that the client refused. */
function callError(tool: string, error: unknown, context: ToolContext): ToolResult {
  if (isFilterError(error)) return invalidFilter(tool, error.issues, error.text);
  if (isParameterError(error)) return parameterError(error);
  if (isBudgetError(error)) {
    // Another call in flight took the units this one's estimate counted on.
    return failure(`Not sent: this ${tool} call could cost up to ${units(error.estimate)} units, but only ${units(error.remaining)} are left of the session budget (calls in flight counted). Lower limit, or wait for the other calls.`, {
      kind: 'over_budget',
      estimate: error.estimate,
      remaining: error.remaining,
      budget: context.budget,
    });
  }
  if (isApiError(error) && error.kind === 'http') {
    const http = error as HttpError;
    // With details: "the service refused the call with 400 invalid_request ..., 1 problem:" and a line each.
    const body = describeHttpFailure(http);
    const text = http.details.length > 0 ? `${body.charAt(0).toUpperCase()}${body.slice(1)}` : `The service refused the call: ${body}`;
    return failure(`${text}\n${serviceAdvice(http.status)}`, {
      kind: 'service',
      status: http.status,
      code: http.code,
      message: http.message,
      request_id: http.requestId,
      details: http.details,
      envelope: http.envelope,
    });
  }
  if (isApiError(error)) {
    const kind = error.kind === 'response-shape' ? 'response_shape' : error.kind === 'timeout' || error.kind === 'network' ? 'unavailable' : error.kind;
    return failure(`The call failed (${error.kind}): ${error.message}\n${kind === 'unavailable' ? 'The service could not be reached; retry later, or ask the user to check --base-url.' : 'Retry later.'}`, {
      kind,
      message: error.message,
    });
  }
  throw error;
}

function success(operation: OperationName, result: AnyResult, context: ToolContext): ToolResult {
  const { client } = context;
  const rows = Array.isArray(result.data) ? result.data.length : undefined;
  const session = { units_spent: client.unitsSpent, budget_remaining: client.budgetRemaining ?? null };
  const structured = {
    data: result.data,
    ...('meta' in result && result.meta !== undefined && { meta: result.meta }),
    units: result.units,
    session,
  };
  const left = context.budget === undefined ? '' : `, ${units(client.budgetRemaining ?? 0)} of ${units(context.budget)} left`;
  const summary = `${rows === undefined ? '1 record' : `${rows} ${rows === 1 ? 'row' : 'rows'}`} · ${units(result.units)} ${result.units === 1 ? 'unit' : 'units'} (session: ${units(client.unitsSpent)} spent${left})`;
  context.log(`${operation}: ${summary}`);
  return { content: [{ type: 'text', text: `${summary}\n${JSON.stringify(structured)}` }], structuredContent: structured };
}

/**
 * One call of an operation's tool: parameter rules (every broken one, with suggestions), the
 * filter (every issue, with its place), the cost guard, then the client.
 */
async function callOperationTool(operation: OperationName, args: Args, context: ToolContext): Promise<ToolResult> {
  const hidden = Object.keys(args).filter((name) => HIDDEN_PARAMS.has(name));
  if (hidden.length > 0) {
    return invalidParameters(
      operation,
      hidden.map((parameter) => ({ parameter, rule: 'unknown_parameter', message: `The ${operation} tool takes no ${parameter}: results are always JSON, in structuredContent.` })),
    );
  }
  const now = Date.now();
  const { issues } = checkParameters(operation, args, { currentMonth: currentMonth(now) });
  if (issues.length > 0) return invalidParameters(operation, issues);
  try {
    // The client's own check of the whole call, the filter included (it throws FilterError).
    checkParams(operation, args, now, normalizeFilter);
    const refusal = checkCost(operation, args, { maxCallUnits: context.maxCallUnits, remaining: context.client.budgetRemaining, budget: context.budget });
    if (refusal !== undefined) return refused(operation, refusal, context);
    return success(operation, await context.client.callOperation(operation, args), context);
  } catch (error) {
    if (isBudgetError(error)) {
      // Calls in flight took, at their worst case, the units this one's estimate counted on: the
      // client's ledger refused it. The same refusal, priced against what it says is left.
      const refusal = checkCost(operation, args, { maxCallUnits: context.maxCallUnits, remaining: error.remaining, budget: context.budget });
      if (refusal !== undefined) return refused(operation, refusal, context);
    }
    return callError(operation, error, context);
  }
}

/** A call refused by the cost guard, as a tool error. */
function refused(operation: OperationName, refusal: CostRefusal, context: ToolContext): ToolResult {
  context.log(`${operation}: refused, ${refusal.code} (estimate ${units(refusal.estimate)}, allowed ${units(refusal.allowed)})`);
  const { message, code, ...facts } = refusal;
  return failure(message, { kind: code, ...facts, budget: context.budget, max_call_units: context.maxCallUnits });
}

/** A string argument, or a tool error naming it. */
function stringArg(tool: string, args: Args, name: string, required: boolean): string | undefined | ToolResult {
  const value = args[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') {
    return parameterError({ parameter: name, code: value === undefined ? 'required' : 'invalid_type', message: value === undefined ? `${tool} needs the argument ${name}.` : `${name} must be a string.` });
  }
  return value;
}

/** Arguments a tool does not take, as a tool error with the closest names. */
function unknownArgs(tool: string, args: Args, known: readonly string[]): ToolResult | undefined {
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  if (unknown.length === 0) return undefined;
  return invalidParameters(
    tool,
    unknown.map((parameter) => {
      const hint = suggest(parameter, known);
      return { parameter, rule: 'unknown_parameter', message: `${tool} takes no argument ${parameter}${didYouMean(hint)}`, ...(hint && { suggestion: hint }) };
    }),
  );
}

const isResult = (value: unknown): value is ToolResult => typeof value === 'object' && value !== null && 'content' in value;

function checkFilterTool(args: Args): ToolResult {
  const unknown = unknownArgs(CHECK_FILTER, args, ['operation', 'filter', 'targets']);
  if (unknown) return unknown;
  const operation = stringArg(CHECK_FILTER, args, 'operation', true);
  if (isResult(operation)) return operation;
  const filter = stringArg(CHECK_FILTER, args, 'filter', true);
  if (isResult(filter)) return filter;
  const targets = args['targets'];
  try {
    const result = safeParseFilter(filter!, { operation: operation!, ...(targets !== undefined && { targets: targets as number }) });
    if (result.ok) {
      const canonical = printFilter(result.filter);
      return { content: [{ type: 'text', text: `Valid. Canonical text: ${canonical}` }], structuredContent: { ok: true, canonical } };
    }
    const text = `Invalid: ${result.issues.length} ${result.issues.length === 1 ? 'issue' : 'issues'}.\n${formatIssues(result.issues, filter!, { maxIssues: Infinity })}`;
    return { content: [{ type: 'text', text }], structuredContent: { ok: false, issues: result.issues.map(issueData) } };
  } catch (error) {
    if (isParameterError(error)) return parameterError(error);
    throw error;
  }
}

/**
 * Why `complete-filter` can offer nothing whatever the text: the operation takes no filter
 * (`filter_not_allowed`, naming those that take one), or the cursor is past the language's length
 * limit (`too_long`). A tool error with the issue as `check-filter` reports it; `undefined` otherwise.
 */
function noFilterHere(operation: OperationName, text: string, offset: number): ToolResult | undefined {
  if (!operations[operation].filter) {
    const takers = OPERATION_NAMES.filter((name) => operations[name].filter);
    const [issue] = finishIssues([{ code: 'filter_not_allowed', offset: 0, length: text.length, expected: operation }], text);
    return failure(`${issue!.message} Nothing can be completed for it. The operations that take a filter: ${takers.join(', ')}.`, {
      kind: 'filter_not_allowed',
      parameter: 'operation',
      operation,
      operations: takers,
      issues: [issueData(issue!)],
    });
  }
  const max = DEFAULT_LIMITS.maxLength;
  if (offset > max) {
    const [issue] = finishIssues([{ code: 'too_long', offset: max, length: offset - max, expected: String(max) }], text);
    return failure(`The cursor is at ${units(offset)}, past the longest filter the language allows (${units(max)} characters): nothing can be completed there. Shorten the filter.`, {
      kind: 'too_long',
      parameter: 'offset',
      offset,
      max_length: max,
      issues: [issueData(issue!)],
    });
  }
  return undefined;
}

function completeFilterTool(args: Args): ToolResult {
  const unknown = unknownArgs(COMPLETE_FILTER, args, ['operation', 'text', 'offset', 'targets']);
  if (unknown) return unknown;
  const operation = stringArg(COMPLETE_FILTER, args, 'operation', true);
  if (isResult(operation)) return operation;
  const text = stringArg(COMPLETE_FILTER, args, 'text', true);
  if (isResult(text)) return text;
  const offset = args['offset'] ?? text!.length;
  const targets = args['targets'];
  try {
    const suggestions = complete(text!, offset as number, { operation: operation as OperationName, ...(targets !== undefined && { targets: targets as number }) });
    // complete() checked the operation and the offset; an empty list for these two cases is not
    // "nothing can follow here": there can be no filter at all. The same issue check-filter reports.
    if (suggestions.length === 0) {
      const refusal = noFilterHere(operation as OperationName, text!, offset as number);
      if (refusal) return refusal;
    }
    const lines = suggestions.map((s) => `${s.label}  (${s.kind}${s.detail ? `, ${s.detail}` : ''}) replaces [${s.from}, ${s.to})${s.description ? `: ${s.description}` : ''}`);
    const head = suggestions.length === 0 ? 'Nothing can follow here (the text before the cursor is not the start of a valid filter, or the cursor is inside a literal).' : `${suggestions.length} ${suggestions.length === 1 ? 'suggestion' : 'suggestions'}:`;
    return { content: [{ type: 'text', text: [head, ...lines].join('\n') }], structuredContent: { suggestions: suggestions.map((s) => ({ ...s })) } };
  } catch (error) {
    if (isParameterError(error)) return parameterError(error);
    throw error;
  }
}

/** The tool names, for the did-you-mean of an unknown one. */
const TOOL_NAMES = (): string[] => toolDefinitions().map((tool) => tool.name);

/**
 * Runs the tool `name` with `args` (as `tools/call` sends them). Never rejects: an unexpected
 * failure is logged with its stack and answered as an internal tool error.
 *
 * @example
 * ```ts
 * await callTool('check-filter', { operation: 'links', filter: 'domain_scor > 50' }, context);
 * // { content: [...], structuredContent: { ok: false, issues: [{ code: 'unknown_field', offset: 0, ..., suggestion: 'domain_score' }] } }
 * ```
 * @internal
 */
export async function callTool(name: string, args: unknown, context: ToolContext): Promise<ToolResult> {
  try {
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      return parameterError({ parameter: 'arguments', code: 'invalid_type', message: 'The arguments of a tool must be an object.' });
    }
    const given = (args ?? {}) as Args;
    name = Object.hasOwn(FORMER_TOOL_NAMES, name) ? FORMER_TOOL_NAMES[name]! : name;
    if (name === CHECK_FILTER) return checkFilterTool(given);
    if (name === COMPLETE_FILTER) return completeFilterTool(given);
    if (isOperationName(name)) return await callOperationTool(name, given, context);
    const hint = suggest(name, TOOL_NAMES());
    return failure(`Unknown tool ${JSON.stringify(name)}${didYouMean(hint)} The tools are: ${TOOL_NAMES().join(', ')}.`, {
      kind: 'unknown_tool',
      tool: name,
      ...(hint && { suggestion: hint }),
    });
  } catch (error) {
    context.log(`${name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return failure(`Internal error of backlink-query mcp: ${error instanceof Error ? error.message : String(error)}`, { kind: 'internal' });
  }
}

