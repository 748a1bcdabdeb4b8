/**
 * The playground page: pick an operation, write a filter (completion, live diagnostics), see its
 * canonical text, its SQL in every dialect, its verdict on sample rows, and run the call against
 * the server with its worst-case price shown first. Everything it knows about operations,
 * parameters and prices comes from the catalogue; everything it computes, from the package.
 *
 * Built by scripts/build-playground.mjs into `dist/playground/` (served at `/playground/`) or,
 * with `npm run playground:docs`, into `docs/playground/` for a static site.
 *
 * @module
 * @internal
 */
import { MAX_MATRIX_TARGETS, OPERATION_NAMES, operations, type FilterableOperation, type Price } from '../catalogue/operations.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { createClient } from '../client/client.js';
import { estimateUnits, worstCaseRows } from '../client/units.js';
import { complete } from '../complete/index.js';
import type { CompletionOptions } from '../complete/types.js';
import { formatIssues } from '../errors/format.js';
import { fieldNames } from '../ast/visitor.js';
import type { Row } from '../evaluate/row.js';
// The key `npm start` (`serve --sample`) prints; a server started otherwise has its own keys.
import { DEMO_KEY } from '../shared/demo-key.js';
import { analyse, type Analysis } from './analysis.js';
import { describeError } from './describe-error.js';
import { $, el } from './dom.js';
import { createEditor, recheck } from './editor.js';
import { sampleRows, SAMPLE_ROW_COUNT } from './sample-rows.js';

/** The operations that take a filter, in the catalogue's order. */
const FILTERABLE = OPERATION_NAMES.filter((name): name is FilterableOperation => operations[name].filter);


// ---- the call's parameters, as a form generated from the catalogue ----

/** Values typed so far, by parameter name: kept when the operation changes. */
const typed = new Map<string, string>();

/** What a new form shows: a target the sample data has, and a small limit so a run costs little. */
function initialValue(name: string, spec: ParamSpec): string {
  if (spec.kind === 'string' && spec.target) return 'example.com';
  if (spec.kind === 'string-list' && spec.target) return 'example.com, linbri.com';
  if (spec.kind === 'enum') return spec.default ?? spec.values[0] ?? '';
  if (spec.kind === 'integer' && name === 'limit') return '10';
  return '';
}

/** The parameters the form shows: all but `filter` (the editor) and `format` (the page reads JSON). */
const formParams = (operation: FilterableOperation) =>
  Object.entries(operations[operation].params as Readonly<Record<string, ParamSpec>>).filter(([name, spec]) => spec.kind !== 'filter' && name !== 'format');

function renderParams(operation: FilterableOperation): void {
  const box = $('params');
  box.replaceChildren();
  for (const [name, spec] of formParams(operation)) {
    let input: HTMLInputElement | HTMLSelectElement;
    const previous = typed.get(name);
    if (spec.kind === 'enum') {
      input = el('select');
      for (const value of spec.values) input.append(el('option', { value }, value));
      input.value = previous !== undefined && spec.values.includes(previous) ? previous : initialValue(name, spec);
    } else {
      input = el('input', { spellcheck: 'false', size: spec.kind === 'integer' ? '5' : '22' });
      if (spec.kind === 'integer') input.type = 'number';
      const placeholder = spec.kind === 'fields' ? (spec.default === 'all' ? 'all' : spec.default.join(',')) : 'default' in spec && spec.default !== undefined ? String(spec.default) : '';
      input.placeholder = placeholder;
      input.value = previous ?? initialValue(name, spec);
    }
    input.id = `param-${name}`;
    input.dataset['param'] = name;
    input.title = spec.doc;
    input.addEventListener('input', () => {
      typed.set(name, input.value);
      if (name === 'urls') recheck(view);
      refresh();
    });
    box.append(el('label', { title: spec.doc }, `${name}${spec.required ? '' : '?'} `, input));
  }
}

/** The call's parameters as typed: lists split at commas, integers as numbers, blanks left out. */
function readParams(operation: FilterableOperation): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, spec] of formParams(operation)) {
    const raw = ($(`param-${name}`) as HTMLInputElement | HTMLSelectElement).value.trim();
    if (raw === '') continue;
    if (spec.kind === 'string-list' || spec.kind === 'fields') params[name] = raw.split(',').map((s) => s.trim()).filter(Boolean);
    else if (spec.kind === 'integer') params[name] = Number(raw);
    else params[name] = raw;
  }
  return params;
}

const currentOperation = () => ($('operation') as HTMLSelectElement).value as FilterableOperation;

/** An operation with `urls` (matrix): the number typed (1-6), which bounds `backlinks_counts[n]`. */
function targetsOf(operation: FilterableOperation): number | undefined {
  if (!Object.hasOwn(operations[operation].params, 'urls')) return undefined;
  const urls = readParams(operation)['urls'];
  const count = Array.isArray(urls) ? urls.length : 0;
  return count >= 1 && count <= MAX_MATRIX_TARGETS ? count : undefined;
}

/** The options of completion, diagnostics and analysis: the operation and, for matrix, its targets. */
const completionOptions = (): CompletionOptions & { readonly operation: FilterableOperation } => {
  const operation = currentOperation();
  const targets = targetsOf(operation);
  return targets === undefined ? { operation } : { operation, targets };
};

// ---- what the filter means ----

function cell(value: unknown): HTMLTableCellElement {
  if (typeof value === 'string') return value === '' ? el('td', { class: 'muted' }, "''") : el('td', { title: value }, value);
  return el('td', { class: typeof value === 'number' ? 'num' : '' }, Array.isArray(value) ? JSON.stringify(value) : String(value));
}

function renderRows(table: HTMLTableElement, rows: readonly Row[], first: readonly string[] = [], verdicts?: readonly boolean[]): void {
  const columns = [...new Set([...first, ...rows.flatMap((row) => Object.keys(row))])];
  const head = el('tr', {}, ...(verdicts ? [el('th', {}, 'match')] : []), ...columns.map((c) => el('th', {}, c)));
  const body = rows.map((row, i) => {
    const tr = el('tr', verdicts ? { class: verdicts[i] ? 'match' : 'no-match' } : {});
    if (verdicts) tr.append(el('td', { class: 'verdict' }, verdicts[i] ? '✓' : '✗'));
    for (const column of columns) tr.append(cell(row[column]));
    return tr;
  });
  table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...body));
}

function renderAnalysis(analysis: Analysis, text: string, rows: readonly Row[]): void {
  const issues = $('issues');
  const canonical = $('canonical');
  const sqlBody = $('sql').querySelector('tbody')!;
  issues.textContent = analysis.state === 'invalid' ? formatIssues(analysis.issues, text, { maxIssues: Infinity }) : '';
  issues.classList.toggle('has-issues', analysis.state === 'invalid');
  canonical.textContent = analysis.state === 'valid' ? analysis.canonical : analysis.state === 'empty' ? '(no filter: every row)' : '(fix the filter first)';
  sqlBody.replaceChildren(
    ...(analysis.state === 'valid'
      ? analysis.sql.map((s) =>
          el(
            'tr',
            { 'data-dialect': s.dialect },
            el('th', {}, s.dialect),
            s.ok ? el('td', { class: 'code' }, s.sql) : el('td', { class: 'unsupported', colspan: '2' }, s.message),
            ...(s.ok ? [el('td', { class: 'code' }, JSON.stringify(s.parameters))] : []),
          ),
        )
      : [el('tr', {}, el('td', { colspan: '3', class: 'muted' }, analysis.state === 'empty' ? 'No filter: no WHERE clause.' : 'Fix the filter first.'))]),
  );
  const verdicts = analysis.state === 'valid' ? analysis.matches : rows.map(() => analysis.state === 'empty');
  const first = analysis.state === 'valid' ? fieldNames(analysis.filter) : [];
  $('sample-count').textContent =
    analysis.state === 'invalid' ? '' : `${verdicts.filter(Boolean).length} of ${SAMPLE_ROW_COUNT} match`;
  renderRows($('sample') as HTMLTableElement, rows, first, analysis.state === 'invalid' ? undefined : verdicts);
}

function renderEstimate(): void {
  const operation = currentOperation();
  const params = readParams(operation);
  const price: Price = operations[operation].price;
  const units = estimateUnits(operation, params);
  $('estimate').textContent =
    price.per === 'request'
      ? `costs ${units} units`
      : `costs up to ${units.toLocaleString('en-US')} units (${price.units} per row × up to ${worstCaseRows(operation, params)} rows)`;
}

let pending: ReturnType<typeof setTimeout> | undefined;
function refresh(): void {
  clearTimeout(pending);
  pending = setTimeout(() => {
    const operation = currentOperation();
    const options = completionOptions();
    const rows = sampleRows(operation, options.targets);
    const text = view.state.doc.toString();
    renderAnalysis(analyse(text, options, rows), text, rows);
    renderEstimate();
  }, 30);
}

// ---- the call ----

async function run(): Promise<void> {
  const status = $('run-status');
  const table = $('result') as HTMLTableElement;
  const operation = currentOperation();
  const text = view.state.doc.toString();
  const params = readParams(operation);
  if (text.trim() !== '') params['filter'] = text;
  status.className = 'status';
  status.textContent = 'Running…';
  table.replaceChildren();
  const started = performance.now();
  try {
    const client = createClient({
      apiKey: ($('api-key') as HTMLInputElement).value.trim(),
      baseUrl: ($('server') as HTMLInputElement).value.trim(),
      retry: false,
    });
    const result = await client.callOperation(operation, params);
    const rows = (Array.isArray(result.data) ? result.data : [result.data]) as Row[];
    const ms = Math.round(performance.now() - started);
    status.className = 'status ok';
    status.textContent = `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}, ${result.units} units charged, ${ms} ms`;
    renderRows(table, rows);
    const remaining = await client.unitsBalance().catch(() => undefined);
    if (remaining !== undefined) status.textContent += `; ${remaining.toLocaleString('en-US')} units left`;
  } catch (error) {
    status.className = 'status error';
    status.textContent = describeError(error, text);
  }
}

// ---- wiring ----

const select = $('operation') as HTMLSelectElement;
for (const name of FILTERABLE) select.append(el('option', { value: name }, name));
const showOperation = () => {
  $('operation-doc').textContent = operations[currentOperation()].doc;
  renderParams(currentOperation());
};
select.addEventListener('change', () => {
  showOperation();
  recheck(view);
  refresh();
});

const docsMode = document.documentElement.dataset['mode'] === 'docs' || location.protocol === 'file:';
($('server') as HTMLInputElement).value = docsMode ? 'http://127.0.0.1:3000' : location.origin;
// The target page is served by the server only: from a docs site, the server's.
if (docsMode) ($('explore-link') as HTMLAnchorElement).href = 'http://127.0.0.1:3000/explore/?url=example.com&scope=ROOT_DOMAIN';
($('api-key') as HTMLInputElement).value = DEMO_KEY;
$('run').addEventListener('click', () => void run());

const view = createEditor({
  parent: $('editor'),
  doc: '',
  complete,
  options: completionOptions,
  onChange: refresh,
});
showOperation();
refresh();
view.focus();
