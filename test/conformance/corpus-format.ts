/**
 * Reader of the conformance corpus (`test/conformance/corpus/*.jsonl`); the format is described
 * in `corpus/README.md`. Kept apart from the runner so the format is checked once, strictly:
 * a malformed case fails loading instead of silently testing nothing.
 *
 * @module
 * @internal
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Text written literally, or as parts: a string, or `[string, count]` for a repeated run. */
export type TextSpec = string | readonly (string | readonly [string, number])[];

/** One expected issue, parsed from `code@offset+length` or `code@offset+length~suggestion`. */
export interface ExpectedIssue {
  readonly code: string;
  readonly offset: number;
  readonly length: number;
  /** For `unknown_field` only: the suggestion, or `null` for none. */
  readonly suggestion?: string | null;
}

/** One corpus case, as the runner uses it. */
export interface CorpusCase {
  readonly name: string;
  readonly input: string;
  readonly operation?: string;
  readonly targets?: number;
  readonly limits?: Readonly<Record<string, number>>;
  readonly expect:
    | { readonly kind: 'canonical'; readonly canonical: string }
    | { readonly kind: 'issues'; readonly issues: readonly ExpectedIssue[] }
    | { readonly kind: 'error'; readonly parameter: string; readonly code: string };
}

const KEYS = new Set(['input', 'op', 'targets', 'limits', 'canonical', 'issues', 'error', 'note']);
const ISSUE = /^([a-z_]+)@(\d+)\+(\d+)(?:~([A-Za-z0-9_]*))?$/;

/** Expands a {@link TextSpec} into the exact text. */
export function expandText(spec: unknown, where: string): string {
  if (typeof spec === 'string') return spec;
  if (!Array.isArray(spec)) throw new Error(`${where}: text must be a string or an array of parts`);
  return spec
    .map((part: unknown) => {
      if (typeof part === 'string') return part;
      if (Array.isArray(part) && part.length === 2 && typeof part[0] === 'string' && Number.isInteger(part[1])) {
        return part[0].repeat(part[1] as number);
      }
      throw new Error(`${where}: a text part must be a string or [string, count]`);
    })
    .join('');
}

/** Parses `code@offset+length[~suggestion]`. */
export function parseIssue(text: string, where: string): ExpectedIssue {
  const m = ISSUE.exec(text);
  if (!m) throw new Error(`${where}: bad issue ${JSON.stringify(text)}; write code@offset+length`);
  const [, code, offset, length, suggestion] = m;
  const base = { code: code!, offset: Number(offset), length: Number(length) };
  if (code !== 'unknown_field') {
    if (suggestion !== undefined) throw new Error(`${where}: only unknown_field takes ~suggestion`);
    return base;
  }
  return { ...base, suggestion: suggestion === undefined || suggestion === '' ? null : suggestion };
}

function expectation(raw: Record<string, unknown>, where: string): CorpusCase['expect'] {
  const present = ['canonical', 'issues', 'error'].filter((k) => k in raw);
  if (present.length !== 1) throw new Error(`${where}: give exactly one of canonical, issues, error`);
  if ('canonical' in raw) return { kind: 'canonical', canonical: expandText(raw.canonical, where) };
  if ('issues' in raw) {
    const issues = raw.issues;
    if (!Array.isArray(issues) || issues.length === 0) throw new Error(`${where}: issues must be a non-empty array`);
    return { kind: 'issues', issues: issues.map((i: unknown) => parseIssue(String(i), where)) };
  }
  const m = /^ParameterError:([A-Za-z.]+):([a-z_]+)$/.exec(String(raw.error));
  if (!m) throw new Error(`${where}: error must be ParameterError:parameter:code`);
  return { kind: 'error', parameter: m[1]!, code: m[2]! };
}

/** Reads one corpus line into a case. */
export function parseCase(line: string, where: string): CorpusCase {
  const raw = JSON.parse(line) as Record<string, unknown>;
  for (const key of Object.keys(raw)) if (!KEYS.has(key)) throw new Error(`${where}: unknown key ${key}`);
  if (!('input' in raw)) throw new Error(`${where}: input is required`);
  const input = expandText(raw.input, where);
  const shown = typeof raw.note === 'string' ? raw.note : JSON.stringify(input.length > 60 ? `${input.slice(0, 57)}...` : input);
  return {
    name: `${where} ${raw.op === undefined ? '' : `[${String(raw.op)}${raw.targets === undefined ? '' : `/${String(raw.targets)}`}] `}${shown}`,
    input,
    ...(typeof raw.op === 'string' ? { operation: raw.op } : {}),
    ...(typeof raw.targets === 'number' ? { targets: raw.targets } : {}),
    ...(typeof raw.limits === 'object' && raw.limits !== null ? { limits: raw.limits as Record<string, number> } : {}),
    expect: expectation(raw, where),
  };
}

/** Every case of every `.jsonl` file in `dir`, in file and line order. */
export function loadCorpus(dir: string): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '' || line.startsWith('#')) return;
      cases.push(parseCase(line, `${file}:${i + 1}`));
    });
  }
  return cases;
}
