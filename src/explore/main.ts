/**
 * The target page (`/explore/?url=example.com&scope=ROOT_DOMAIN`): one target at a glance, each
 * answer as a picture. Overview figures, the monthly history as lines (with the change from month
 * to month), the score profile as a histogram, the top anchors and referring domains as bars, the
 * competitors ranked by similarity. Each chart says what its call costs before it is made, and
 * makes it only when the user opens or refreshes that chart; each has a link to its call (the URL
 * and the CLI command), the filterable ones a filter box with the playground's completion and
 * diagnostics. Every answer is shown, an error too: never a blank chart.
 *
 * Operations, parameters, fields and prices all come from the catalogue; the calls go through the
 * package's client. Built by scripts/build-playground.mjs (`--page explore`) into `dist/explore/`.
 *
 * @module
 * @internal
 */
import { COMPETITOR_MIN_COMMON, COMPETITOR_MIN_SIMILARITY, operations, type FilterableOperation, type OperationName } from '../catalogue/operations.js';
import { FIELD_DOCS } from '../catalogue/field-docs.js';
import type { ParamSpec } from '../catalogue/parameters.js';
import { createClient } from '../client/client.js';
import { checkParams } from '../client/params.js';
import { estimateUnits, worstCaseRows } from '../client/units.js';
import { complete } from '../complete/index.js';
import { formatIssues } from '../errors/format.js';
import { DEMO_KEY } from '../shared/demo-key.js';
import { safeParseFilter } from '../syntax/parse.js';
import { describeError } from '../playground/describe-error.js';
import { createEditor } from '../playground/editor.js';
import { barChart, historyChart, scoreHistogram, type Row } from './charts.js';
import { $, el } from '../playground/dom.js';


const integer = (n: number) => n.toLocaleString('en-US');

// ---- the target ----

interface Target {
  readonly url: string;
  readonly scope: string;
}

/** The scopes of the target-based operations, from the catalogue. */
const SCOPES = operations.overview.params.scope.values;

function readTarget(): Target {
  return { url: ($('url') as HTMLInputElement).value.trim(), scope: ($('scope') as HTMLSelectElement).value };
}

/** The domain of a target, for competitors (which takes a domain): no protocol, path or port. */
const domainOf = (url: string) => url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#:]/)[0] ?? '';

// ---- the charts ----

interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly operation: OperationName;
  /** What the chart shows, in a sentence. */
  readonly about: string;
  /** The `limit` the chart starts with, and the name of its input; none for a call without a limit. */
  readonly limit?: { readonly initial: number; readonly label: string };
  /** The filter box's hint (filterable operations only). */
  readonly placeholder?: string;
  /** The call's parameters but `limit` and `filter`. */
  readonly params: (target: Target) => Record<string, unknown>;
  /** What the page says of an answer with no rows (default: the service has nothing for the target and filter). */
  readonly empty?: string;
  /** Draws the answer into `body`; `rows` holds at least one row. */
  readonly draw: (rows: readonly Row[], body: HTMLElement) => void;
}

/** The overview's figures: every field of its record, named by the catalogue's sentence. */
function drawOverview(rows: readonly Row[], body: HTMLElement): void {
  const record = rows[0]!;
  const docs = FIELD_DOCS.overview as Readonly<Record<string, string>>;
  body.append(
    el(
      'dl',
      { class: 'figures' },
      ...Object.keys(operations.overview.record).map((field) =>
        el('div', { class: 'figure', 'data-field': field }, el('dt', { title: field }, docs[field] ?? field), el('dd', {}, typeof record[field] === 'number' ? integer(record[field]) : String(record[field] ?? '–'))),
      ),
    ),
  );
}

const CHARTS: readonly ChartSpec[] = [
  {
    id: 'overview',
    title: 'Overview',
    operation: 'overview',
    about: 'Aggregate counts of the target.',
    params: ({ url, scope }) => ({ url, scope }),
    draw: drawOverview,
  },
  {
    id: 'summary',
    title: 'Backlinks and referring domains per month',
    operation: 'summary',
    about:
      'The monthly history, oldest month first; below, the change in backlinks from the month before. The history holds no new and lost counts per month, so the bars are the net of both; the overview gives the new (last 30 days) and lost links.',
    limit: { initial: 12, label: 'months' },
    params: ({ url, scope }) => ({ url, scope }),
    draw: (rows, body) => {
      const { lines, change } = historyChart(rows);
      body.append(el('div', { class: 'panel', 'data-panel': 'lines' }, lines), el('div', { class: 'panel', 'data-panel': 'change' }, change));
    },
  },
  {
    id: 'score-profile',
    title: 'Referring domains by authority score',
    operation: 'score-profile',
    about: 'How many referring domains have each score 0-100; a score with none has no bar.',
    empty:
      "No rows: none of the target's referring domains has a known score (an import from Semrush, Majestic or Screaming Frog gives them none until a domains file is imported: docs/importing.md).",
    params: ({ url, scope }) => ({ url, scope }),
    draw: (rows, body) => body.append(el('div', { class: 'panel' }, scoreHistogram(rows))),
  },
  {
    id: 'anchors',
    title: 'Top anchors',
    operation: 'anchors',
    about: 'The anchor texts with the most referring domains.',
    limit: { initial: 10, label: 'top' },
    placeholder: "anchor LIKE '%seo%' AND backlinks_count > 1",
    params: ({ url, scope }) => ({ url, scope, fields: ['anchor', 'domains_count', 'backlinks_count'], order_by: 'domains_count' }),
    draw: (rows, body) =>
      body.append(el('div', { class: 'panel' }, barChart(rows, { label: 'anchor', value: 'domains_count', what: 'referring domains', ariaLabel: 'Top anchors by referring domains' }))),
  },
  {
    id: 'ref-domains',
    title: 'Top referring domains',
    operation: 'ref-domains',
    about: 'The referring domains with the most backlinks to the target.',
    limit: { initial: 10, label: 'top' },
    placeholder: 'domain_score >= 50 AND is_follow = true',
    params: ({ url, scope }) => ({ url, scope, fields: ['domain', 'backlinks_count', 'domain_score'], order_by: 'backlinks_count' }),
    draw: (rows, body) =>
      body.append(el('div', { class: 'panel' }, barChart(rows, { label: 'domain', value: 'backlinks_count', what: 'backlinks', ariaLabel: 'Top referring domains by backlinks' }))),
  },
  {
    id: 'competitors',
    title: 'Competitors',
    operation: 'competitors',
    about: "Domains that share referring domains with the target's domain, ranked by similarity (the share of referring domains in common).",
    limit: { initial: 10, label: 'top' },
    empty: `No rows: no domain shares at least ${COMPETITOR_MIN_COMMON} referring domains with this one (with a similarity of at least ${COMPETITOR_MIN_SIMILARITY}), which the interface asks of a competitor.`,
    params: ({ url }) => ({ domain: domainOf(url), order_by: 'similarity' }),
    draw: (rows, body) => {
      const percent = (n: number) => `${Math.round(n * 100)}%`;
      body.append(
        el('div', { class: 'panel' }, barChart(rows, { label: 'domain', value: 'similarity', what: 'similarity', ariaLabel: 'Competitors by similarity', domain: [0, 1], format: percent })),
        el(
          'ol',
          { class: 'ranked' },
          ...rows.map((row) => el('li', {}, el('strong', {}, String(row['domain'])), ` ${percent(Number(row['similarity']))} similar, ${integer(Number(row['common_refdomains']))} referring domains in common`)),
        ),
      );
    },
  },
];

// ---- one chart's card ----

/** Single-quotes a shell word when it needs it. */
const shellWord = (word: string) => (/^[A-Za-z0-9_./:@,=+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The CLI command of a call: the operation, its target as the positional argument (the first
 * required string parameter, as the CLI takes it), the other parameters as `--options`.
 */
function cliCommand(operation: OperationName, params: Readonly<Record<string, unknown>>, server: string): string {
  const specs = operations[operation].params as Readonly<Record<string, ParamSpec>>;
  const positional = Object.entries(specs).find(([, s]) => s.required && (s.kind === 'string' || s.kind === 'string-list'))?.[0];
  const words = ['backlink-query', operation];
  if (positional !== undefined) words.push(shellWord(String(params[positional])));
  for (const [name, value] of Object.entries(params)) {
    if (name === positional || value === undefined) continue;
    words.push(`--${name.replace(/_/g, '-')}`, shellWord(Array.isArray(value) ? value.join(',') : String(value)));
  }
  words.push('--base-url', shellWord(server));
  return words.join(' ');
}

type State = 'idle' | 'loading' | 'drawn' | 'empty' | 'error';

interface Card {
  readonly spec: ChartSpec;
  /** The call's parameters as now typed. */
  readonly params: () => Record<string, unknown>;
  /** Makes the chart's call and draws its answer; then shows the key's balance, unless `balance` is false. */
  readonly open: (options?: { readonly balance?: boolean }) => Promise<void>;
  readonly reset: () => void;
  /** Shows the cost and the call of the parameters as now typed. */
  readonly update: () => void;
  readonly filterText: () => string;
}

function costText(operation: OperationName, params: Readonly<Record<string, unknown>>): string {
  const price = operations[operation].price;
  const units = estimateUnits(operation, params);
  return price.per === 'request'
    ? `costs ${integer(units)} units`
    : `costs up to ${integer(units)} units (${price.units} per row × up to ${worstCaseRows(operation, params)} rows)`;
}

function server(): string {
  return ($('server') as HTMLInputElement).value.trim().replace(/\/+$/, '');
}

/**
 * The client of the server and key now typed: one for every chart, whose limiter keeps the page's
 * calls within the service's default rate (10 a second), so that opening every chart at once is
 * not refused with 429 by a server with the default limits.
 */
let shared: { readonly server: string; readonly key: string; readonly client: ReturnType<typeof createClient> } | undefined;
function client(): ReturnType<typeof createClient> {
  const key = ($('api-key') as HTMLInputElement).value.trim();
  if (shared?.server !== server() || shared.key !== key) shared = { server: server(), key, client: createClient({ apiKey: key, baseUrl: server(), retry: false, rateLimit: { perSecond: 8 } }) };
  return shared.client;
}

async function showBalance(): Promise<void> {
  const left = await client().unitsBalance().catch(() => undefined);
  if (left !== undefined) $('balance').textContent = `${integer(left)} units left`;
}

function makeCard(spec: ChartSpec): Card {
  const filterable = operations[spec.operation].filter;
  const section = el('section', { class: 'chart', id: `chart-${spec.id}`, 'data-operation': spec.operation, 'data-state': 'idle', 'aria-labelledby': `title-${spec.id}` });
  const button = el('button', { type: 'button', class: 'open' }, 'Open');
  const cost = el('span', { class: 'cost' });
  const limitInput = spec.limit ? el('input', { type: 'number', min: '1', value: String(spec.limit.initial), size: '4', class: 'limit', 'aria-label': spec.limit.label }) : undefined;
  const status = el('p', { class: 'status', 'aria-live': 'polite' });
  // Says when the parameters changed since the chart was drawn: what is shown is the earlier call's.
  const stale = el('p', { class: 'stale', hidden: '' }, 'Changed since drawn: Refresh to apply.');
  /** The parameters of the call whose answer is shown. */
  let shown: string | undefined;
  const body = el('div', { class: 'chart-body' });
  const callUrl = el('code', { class: 'call-url' });
  const callCli = el('code', { class: 'call-cli' });
  const issues = el('pre', { class: 'issues', 'aria-live': 'polite' });
  const editorBox = el('div', { class: 'editor' });

  section.append(
    el('h2', { id: `title-${spec.id}` }, spec.title, ' ', el('span', { class: 'op' }, spec.operation)),
    el('p', { class: 'muted about' }, spec.about),
    el('div', { class: 'row' }, ...(limitInput ? [el('label', {}, `${spec.limit!.label} `, limitInput)] : []), button, cost),
    ...(filterable ? [el('div', { class: 'filter' }, el('span', { class: 'filter-label' }, 'Filter'), editorBox), issues] : []),
    status,
    stale,
    body,
    el('details', { class: 'call' }, el('summary', {}, 'The call'), el('div', {}, 'URL ', callUrl), el('div', {}, 'CLI ', callCli)),
  );
  $('charts').append(section);

  let editorText = () => '';
  const params = (): Record<string, unknown> => {
    const p = spec.params(readTarget());
    if (limitInput && limitInput.value.trim() !== '') p['limit'] = Number(limitInput.value);
    const text = editorText();
    if (filterable && text.trim() !== '') p['filter'] = text;
    return p;
  };

  const update = () => {
    const p = params();
    cost.textContent = costText(spec.operation, p);
    try {
      callUrl.textContent = `GET ${server()}${operations[spec.operation].path}?${checkParams(spec.operation, p, Date.now())}`;
    } catch (error) {
      callUrl.textContent = `(not a valid call: ${(error as Error).message})`;
    }
    callCli.textContent = cliCommand(spec.operation, p, server());
    for (const span of body.querySelectorAll('.placeholder-cost')) span.textContent = cost.textContent;
    stale.hidden = shown === undefined || shown === JSON.stringify(p);
    if (filterable) {
      const text = editorText();
      const result = text.trim() === '' ? undefined : safeParseFilter(text, { operation: spec.operation as FilterableOperation });
      issues.textContent = result && !result.ok ? formatIssues(result.issues, text, { maxIssues: Infinity }) : '';
      issues.classList.toggle('has-issues', Boolean(result && !result.ok));
    }
  };

  const setState = (state: State, message: string) => {
    section.dataset['state'] = state;
    status.className = `status ${state === 'error' ? 'error' : state === 'drawn' ? 'ok' : ''}`;
    status.textContent = message;
    button.textContent = state === 'idle' || (state === 'error' && !section.dataset['opened']) ? 'Open' : 'Refresh';
  };

  const reset = () => {
    body.replaceChildren(el('p', { class: 'placeholder' }, `Not loaded: opening it calls ${spec.operation}, which `, el('span', { class: 'placeholder-cost' }, cost.textContent ?? ''), '.'));
    delete section.dataset['opened'];
    shown = undefined;
    stale.hidden = true;
    setState('idle', '');
  };

  const open = async (options: { readonly balance?: boolean } = {}) => {
    const p = params();
    setState('loading', `Calling ${spec.operation}…`);
    body.replaceChildren(el('p', { class: 'placeholder' }, 'Loading…'));
    button.disabled = true;
    try {
      const result = await client().callOperation(spec.operation, p);
      section.dataset['opened'] = 'yes';
      shown = JSON.stringify(p);
      stale.hidden = true;
      const rows = (Array.isArray(result.data) ? result.data : [result.data]) as Row[];
      body.replaceChildren();
      const charged = `${integer(result.units)} units charged`;
      if (rows.length === 0) {
        body.append(el('p', { class: 'placeholder' }, spec.empty ?? 'No rows: the service has nothing for this target and filter.'));
        setState('empty', `0 rows, ${charged}`);
      } else {
        spec.draw(rows, body);
        body.append(dataTable(rows));
        setState('drawn', `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}, ${charged}`);
      }
      if (options.balance !== false) await showBalance();
    } catch (error) {
      body.replaceChildren(el('pre', { class: 'error-box', role: 'alert' }, describeError(error, editorText())));
      setState('error', 'Not drawn: the call failed.');
    } finally {
      button.disabled = false;
    }
  };

  if (filterable) {
    const view = createEditor({
      parent: editorBox,
      doc: '',
      complete,
      options: () => ({ operation: spec.operation as FilterableOperation }),
      onChange: update,
      ...(spec.placeholder ? { placeholder: spec.placeholder } : {}),
      label: `Filter of ${spec.title.toLowerCase()}`,
    });
    editorText = () => view.state.doc.toString();
  }
  limitInput?.addEventListener('input', update);
  button.addEventListener('click', () => void open());
  update();
  reset();
  return { spec, params, open, reset, update, filterText: () => editorText() };
}

/** The answer as a table, for screen readers and for reading exact values. */
function dataTable(rows: readonly Row[]): HTMLElement {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return el(
    'details',
    { class: 'data' },
    el('summary', {}, `Data (${rows.length} ${rows.length === 1 ? 'row' : 'rows'})`),
    el(
      'div',
      { class: 'scroll' },
      el(
        'table',
        { class: 'rows' },
        el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', {}, c)))),
        el('tbody', {}, ...rows.map((row) => el('tr', {}, ...columns.map((c) => el('td', { class: typeof row[c] === 'number' ? 'num' : '' }, Array.isArray(row[c]) ? JSON.stringify(row[c]) : String(row[c])))))),
      ),
    ),
  );
}

// ---- wiring ----

const query = new URLSearchParams(location.search);
const scopeSelect = $('scope') as HTMLSelectElement;
for (const scope of SCOPES) scopeSelect.append(el('option', { value: scope }, scope));
($('url') as HTMLInputElement).value = query.get('url') ?? 'example.com';
scopeSelect.value = SCOPES.includes(query.get('scope') as (typeof SCOPES)[number]) ? query.get('scope')! : 'ROOT_DOMAIN';
($('server') as HTMLInputElement).value = location.protocol === 'file:' ? 'http://127.0.0.1:3000' : location.origin;
($('api-key') as HTMLInputElement).value = DEMO_KEY;

const cards = CHARTS.map(makeCard);

const totalCost = () => cards.reduce((sum, card) => sum + estimateUnits(card.spec.operation, card.params()), 0);
const showTotal = () => ($('open-all-cost').textContent = `costs up to ${integer(totalCost())} units`);

/** A new target: every chart back to not loaded (nothing is spent until one is opened), the address bar updated. */
function targetChanged(): void {
  const { url, scope } = readTarget();
  history.replaceState(null, '', `?${new URLSearchParams({ url, scope })}`);
  $('target-name').textContent = url;
  for (const card of cards) {
    card.update();
    card.reset();
  }
  showTotal();
}

$('url').addEventListener('change', targetChanged);
scopeSelect.addEventListener('change', targetChanged);
$('server').addEventListener('change', targetChanged);
$('open-all').addEventListener('click', async () => {
  for (const card of cards) await card.open({ balance: false });
  await showBalance();
});
document.addEventListener('input', (event) => {
  if ((event.target as HTMLElement).matches?.('input.limit')) showTotal();
});
$('target-name').textContent = readTarget().url;
showTotal();
