/**
 * The target page's charts, drawn with Observable Plot from the rows of one answer each: SVG, so
 * the marks, axes and labels are in the DOM (for screen readers and for the tests that read what
 * was drawn). Each function takes the answer's rows and returns the element to show; none of them
 * fetches anything.
 *
 * @module
 * @internal
 */
import * as Plot from '@observablehq/plot';

/** One row of an answer. @internal */
export type Row = Readonly<Record<string, unknown>>;

const WIDTH = 680;
const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
const str = (value: unknown): string => (typeof value === 'string' ? value : String(value));
const integer = (n: number) => n.toLocaleString('en-US');

/** The longest label a bar chart's axis shows whole; longer ones end in `…` (the bar's title holds all). @internal */
export const LABEL_CHARS = 32;

/**
 * A bar chart's label for a text: `(empty)` for the empty string, cut to {@link LABEL_CHARS}
 * characters with an ellipsis.
 *
 * @example
 * ```ts
 * barLabel(''); // '(empty)'
 * ```
 * @internal
 */
export function barLabel(text: string): string {
  if (text === '') return '(empty)';
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
}

/** `2026-05-01` → `2026-05`. */
const month = (row: Row) => str(row['month_date']).slice(0, 7);

/**
 * The monthly history (summary) in two panels, the months on both x axes: backlinks and referring
 * domains as lines, and below, the change in backlinks from the month before as bars (gained up,
 * dropped down). The service's history has no new and lost counts per month: the change is the
 * net of both.
 *
 * @internal
 */
export function historyChart(rows: readonly Row[]): { lines: Element; change: Element } {
  const months = rows.map(month);
  const long = rows.flatMap((row) => [
    { month: month(row), series: 'backlinks', value: num(row['backlinks_count']) },
    { month: month(row), series: 'referring domains', value: num(row['domains_count']) },
  ]);
  const x = { type: 'point' as const, domain: months, label: null, tickRotate: months.length > 12 ? -40 : 0 };
  const lines = Plot.plot({
    width: WIDTH,
    height: 260,
    marginLeft: 60,
    marginBottom: months.length > 12 ? 50 : 30,
    ariaLabel: 'Backlinks and referring domains per month',
    x,
    y: { grid: true, label: 'count', zero: true },
    color: { legend: true, domain: ['backlinks', 'referring domains'], range: ['#0969da', '#bf8700'] },
    marks: [
      Plot.lineY(long, { x: 'month', y: 'value', stroke: 'series', strokeWidth: 2 }),
      Plot.dot(long, { x: 'month', y: 'value', fill: 'series', r: 3, title: (d: { month: string; series: string; value: number }) => `${d.month}: ${integer(d.value)} ${d.series}` }),
    ],
  });
  const changes = rows.slice(1).map((row, i) => ({ month: month(row), change: num(row['backlinks_count']) - num(rows[i]!['backlinks_count']) }));
  const change = Plot.plot({
    width: WIDTH,
    height: 150,
    marginLeft: 60,
    marginBottom: months.length > 12 ? 50 : 30,
    ariaLabel: 'Change in backlinks from the month before',
    x: { ...x, type: 'band', padding: 0.2 },
    y: { grid: true, label: 'change in backlinks' },
    color: { domain: ['gained', 'dropped'], range: ['#1a7f37', '#cf222e'] },
    marks: [
      Plot.barY(changes, {
        x: 'month',
        y: 'change',
        fill: (d: { change: number }) => (d.change >= 0 ? 'gained' : 'dropped'),
        title: (d: { month: string; change: number }) => `${d.month}: ${d.change >= 0 ? '+' : ''}${integer(d.change)} backlinks`,
      }),
      Plot.ruleY([0]),
    ],
  });
  return { lines, change };
}

/**
 * The score profile as a histogram: one bar per score 0-100 that has referring domains, as high
 * as their number.
 *
 * @internal
 */
export function scoreHistogram(rows: readonly Row[]): Element {
  return Plot.plot({
    width: WIDTH,
    height: 240,
    marginLeft: 50,
    ariaLabel: 'Referring domains by domain score',
    x: { domain: [0, 101], label: 'domain score', ticks: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100] },
    y: { grid: true, label: 'referring domains' },
    marks: [
      Plot.rectY(rows, {
        x1: (d: Row) => num(d['domain_score']),
        x2: (d: Row) => num(d['domain_score']) + 1,
        y: (d: Row) => num(d['domains_count']),
        insetLeft: 0.5,
        insetRight: 0.5,
        fill: '#0969da',
        title: (d: Row) => `score ${num(d['domain_score'])}: ${integer(num(d['domains_count']))} referring domains`,
      }),
      Plot.ruleY([0]),
    ],
  });
}

/**
 * Horizontal bars, one per row in the answer's order (the top first): `label` names the bar,
 * `value` its length; `format` writes the value at the bar's end and in its title.
 *
 * @internal
 */
export function barChart(
  rows: readonly Row[],
  options: { readonly label: string; readonly value: string; readonly what: string; readonly ariaLabel: string; readonly domain?: [number, number]; readonly format?: (n: number) => string },
): Element {
  const format = options.format ?? integer;
  const labels = rows.map((row) => str(row[options.label]));
  const widest = Math.max(0, ...labels.map((label) => barLabel(label).length));
  return Plot.plot({
    width: WIDTH,
    height: 30 + rows.length * 24,
    marginLeft: Math.min(260, 16 + widest * 7),
    marginRight: 70,
    ariaLabel: options.ariaLabel,
    x: { grid: true, label: options.what, ...(options.domain ? { domain: options.domain } : {}), ...(options.format ? { tickFormat: options.format } : {}) },
    // The answer's order: the service sorted the rows.
    y: { domain: labels, label: null, tickFormat: barLabel },
    marks: [
      Plot.barX(rows, {
        y: (d: Row) => str(d[options.label]),
        x: (d: Row) => num(d[options.value]),
        fill: '#0969da',
        title: (d: Row) => `${str(d[options.label]) || '(empty)'}: ${format(num(d[options.value]))} ${options.what}`,
      }),
      Plot.text(rows, { y: (d: Row) => str(d[options.label]), x: (d: Row) => num(d[options.value]), text: (d: Row) => format(num(d[options.value])), textAnchor: 'start', dx: 4 }),
      Plot.ruleX([0]),
    ],
  });
}
