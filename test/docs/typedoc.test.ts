/**
 * `npm run docs` renders the guides: typedoc, run through its Node API with the project's
 * typedoc.json into a temporary folder (never docs/api, which other runs may be writing), makes
 * the README the index page and every guide of docs/ a page of its own (typedoc's project
 * documents), and rewrites the relative links between them (`client.md#anchor`) to the rendered
 * pages, so no link of the site points at a raw `.md` file. The pages and titles below are
 * written by hand: renaming a guide's title renames its page, and this test says so.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, LogLevel } from 'typedoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIMEOUT = 180_000;

/** Each guide of docs/, the page typedoc makes of it (from its front-matter title) and its first heading. */
const GUIDES: readonly { readonly file: string; readonly page: string; readonly heading: string }[] = [
  { file: 'docs/architecture.md', page: 'documents/Architecture.html', heading: 'Architecture: the layers of <code>src/</code>' },
  { file: 'docs/building-filters.md', page: 'documents/Building_filters_in_code.html', heading: 'Building filters in code' },
  { file: 'docs/design-import.md', page: 'documents/Design_of_the_import.html', heading: 'Design of the import: its speed and memory, as measured' },
  { file: 'docs/design-store.md', page: 'documents/Design_of_the_stores.html', heading: 'Design of the stores: how they are built, and what was measured' },
  { file: 'docs/completion.md', page: 'documents/Completion_while_writing_filters.html', heading: 'Completion while writing filters' },
  { file: 'docs/cli.md', page: 'documents/The_command_line.html', heading: 'The command line: <code>backlink-query</code>' },
  { file: 'docs/client.md', page: 'documents/The_typed_client.html', heading: 'The typed client' },
  { file: 'docs/errors.md', page: 'documents/Errors.html', heading: 'Errors' },
  { file: 'docs/evaluator.md', page: 'documents/The_in-memory_evaluator.html', heading: 'The in-memory evaluator' },
  { file: 'docs/examples.md', page: 'documents/Runnable_examples_in_the_docs.html', heading: 'Runnable examples in the docs' },
  { file: 'docs/filter-language.md', page: 'documents/The_filter_language.html', heading: 'The filter language' },
  { file: 'docs/fuzzing.md', page: 'documents/Fuzzing_with_backlink-query_testing.html', heading: 'Fuzzing with backlink-query/testing' },
  { file: 'docs/importing.md', page: 'documents/Importing_your_own_links.html', heading: 'Importing your own links' },
  { file: 'docs/mcp.md', page: 'documents/The_MCP_server_for_agents.html', heading: 'The MCP server for agents: <code>backlink-query mcp</code>' },
  { file: 'docs/mutation.md', page: 'documents/Mutation_check.html', heading: 'Mutation check: do the tests fail when the code is wrong?' },
  { file: 'docs/operations.md', page: 'documents/What_each_operation_means.html', heading: 'What each operation means (reference server)' },
  { file: 'docs/playground.md', page: 'documents/The_playground.html', heading: 'The playground' },
  { file: 'docs/scaling.md', page: 'documents/The_service_at_scale.html', heading: 'The service at scale: the store, rollups, columns, PostgreSQL and bulk loads' },
  { file: 'docs/server.md', page: 'documents/The_reference_server.html', heading: 'The reference server' },
  { file: 'docs/sql.md', page: 'documents/Filters_as_SQL.html', heading: 'Filters as SQL' },
  { file: 'docs/testing.md', page: 'documents/A_stand-in_for_the_service_in_your_tests.html', heading: 'A stand-in for the service in your tests' },
  { file: 'docs/testing-engines.md', page: 'documents/Testing_on_real_engines.html', heading: 'Testing on real engines' },
];

/** The benchmark results docs/scaling.md links (bench/RESULTS.md, bench/results/*.md), rendered as its child pages. */
const BENCH_PAGES = ['documents/The_service_at_scale.Benchmark_results.html', 'documents/The_service_at_scale.Benchmark_run_at_0f4a3a1.html', 'documents/The_service_at_scale.Benchmark_run_at_38a7350.html', 'documents/The_service_at_scale.Benchmark_run_at_21e470f.html'];

/** The non-markdown files the guides link, copied next to the pages. */
const MEDIA = ['media/filter.ebnf', 'media/diagrams.html', 'media/openapi.json'];

let out: string;
const warnings: string[] = [];

function page(path: string): string {
  return readFileSync(join(out, path), 'utf8');
}

/** The value of every `href` of a page, HTML entities decoded the way typedoc writes them. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/\bhref="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
}

/** The ids a page defines, the targets of `#anchor`. */
function ids(html: string): Set<string> {
  return new Set([...html.matchAll(/\bid="([^"]*)"/g)].map((m) => m[1]!));
}

/**
 * The links of a page that do not lead anywhere in the site: a relative link to a file the
 * output lacks, to a raw `.md` file, or to an anchor its target page does not define.
 */
function brokenLinks(path: string): string[] {
  const html = page(path);
  const broken: string[] = [];
  for (const href of hrefs(html)) {
    // markdown-it's linkify would make "see RESULTS.md" a link to the host RESULTS.md.
    if (/^https?:\/\/[^/]+\.md\/?$/i.test(href)) broken.push(`${href} (a file name made a web address)`);
    if (href === '' || href === '#' || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
    const [target = '', anchor] = href.split('#', 2) as [string, string | undefined];
    const file = target === '' ? join(out, path) : join(dirname(join(out, path)), decodeURIComponent(target));
    if (/\.md$/i.test(target)) broken.push(`${href} (a raw .md file)`);
    else if (!existsSync(file)) broken.push(`${href} (no ${relative(out, file)} in the output)`);
    else if (anchor && file.endsWith('.html') && !ids(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor)))
      broken.push(`${href} (no id "${anchor}" in ${relative(out, file)})`);
  }
  return broken;
}

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'bq-typedoc-'));
  const app = await Application.bootstrapWithPlugins({
    options: join(ROOT, 'typedoc.json'),
    tsconfig: join(ROOT, 'tsconfig.json'),
    out,
    logLevel: 'Warn',
    // Type errors are `npm run typecheck`'s to report; the pages do not depend on them.
    skipErrorChecking: true,
  });
  const log = app.logger.log.bind(app.logger);
  app.logger.log = (message, level) => {
    if (level === LogLevel.Warn) warnings.push(message.replace(/\x1b\[[0-9;]*m/g, ''));
    log(message, level);
  };
  const project = await app.convert();
  if (!project) throw new Error('typedoc could not convert the project');
  app.validate(project);
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error('typedoc reported errors (above)');
}, TIMEOUT);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('typedoc renders the guides as pages', () => {
  it('writes no warning (npm run docs treats warnings as errors)', () => {
    expect(warnings).toEqual([]);
  });

  it('makes the README the index page', () => {
    const index = page('index.html');
    expect(index).toMatch(/<h1 id="backlink-query"[^>]*>backlink-query</);
    expect(index).toMatch(/<h2 id="quick-start"[^>]*>Quick start</);
  });

  it.each(GUIDES)('renders $file as $page', ({ page: path, heading }) => {
    expect(existsSync(join(out, path)), path).toBe(true);
    expect(page(path)).toContain(`${heading}<a href="#`);
  });

  it('renders the benchmark results docs/scaling.md links, and copies the other files the guides link', () => {
    for (const path of [...BENCH_PAGES, ...MEDIA]) expect(existsSync(join(out, path)), path).toBe(true);
    expect(hrefs(page('documents/The_service_at_scale.html'))).toContain('The_service_at_scale.Benchmark_results.html');
    expect(hrefs(page('documents/The_filter_language.html'))).toEqual(expect.arrayContaining(['../media/filter.ebnf', '../media/diagrams.html']));
    expect(hrefs(page('documents/The_reference_server.html'))).toContain('../media/openapi.json');
  });

  it("rewrites the README's links to guides to the rendered pages", () => {
    const links = hrefs(page('index.html'));
    expect(links).toContain('documents/The_typed_client.html');
    expect(links).toContain('documents/The_filter_language.html');
    expect(links).toContain('documents/CHANGELOG.html');
    expect(links).not.toContain('docs/client.md');
    expect(existsSync(join(out, 'documents/The_typed_client.html'))).toBe(true);
    expect(brokenLinks('index.html')).toEqual([]);
  });

  it('leaves no link to a raw .md file in the guides, and every anchor into another guide exists', () => {
    // One cross-guide anchor written by hand, then every link of every guide.
    expect(hrefs(page('documents/The_typed_client.html'))).toContain('The_reference_server.html#parameter-rules');
    expect(ids(page('documents/The_reference_server.html')).has('parameter-rules')).toBe(true);
    const broken = [...GUIDES.map((g) => g.page), ...BENCH_PAGES, 'documents/CHANGELOG.html'].flatMap((path) => brokenLinks(path).map((link) => `${path}: ${link}`));
    expect(broken).toEqual([]);
  });
});
