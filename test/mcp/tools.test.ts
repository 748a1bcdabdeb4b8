/**
 * `backlink-query mcp` end to end: the SDK's own client spawns the CLI over stdio, and the CLI's
 * tools call the reference server on a real loopback port, on the hand-written fixture of
 * test/server/support/fixture.ts. Expected rows, schemas, issue codes and offsets are worked out by hand
 * from the fixture, the interface page (service-interface.md) and the language page, or read with
 * a bare `fetch` from the same server.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { KEYS, NOW } from '../server/support/fixture.js';
import { fixtureStore } from '../server/support/helpers.js';
import { startSession, textOf, type Session } from './session.js';

let server: RunningServer;
let session: Session;

beforeAll(async () => {
  server = await startServer({ store: await fixtureStore(), keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', rateLimits: { perSecond: 1000, concurrent: 100 } });
  session = await startSession(['--base-url', server.url], { BACKLINK_QUERY_API_KEY: KEYS[0].key });
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

/** The twelve operations of the interface, by the last segment of their paths (service-interface.md, Endpoints). */
const OPERATIONS = ['overview', 'summary', 'links', 'ref-domains', 'ref-ips', 'pages', 'anchors', 'score-profile', 'competitors', 'comparison', 'matrix', 'metrics'];

/** "Allowed country values" of the keyword operation, copied from service-interface.md. */
const COUNTRIES =
  'AF, AL, DZ, AO, AR, AM, AU, AT, AZ, BS, BH, BD, BY, BE, BZ, BO, BA, BW, BR, BN, BG, KH, CM, CA, CV, CL, CO, CR, HR, CY, CZ, CD, DK, DO, EC, EG, SV, EE, ET, FI, FR, GE, DE, GH, GR, GT, GY, HT, HN, HK, HU, IS, IN, ID, IE, IL, IT, JM, JP, JO, KZ, KW, LV, LB, LY, LT, LU, MG, MY, MT, MU, MX, MD, MN, ME, MA, MZ, NA, NP, NL, NZ, NI, NG, NO, OM, PK, PA, PY, PE, PH, PL, PT, QA, RO, RU, SA, SN, RS, SG, SK, SI, ZA, KR, ES, LK, SE, CH, TW, TH, TT, TN, TR, UA, AE, UK, US, UY, VE, VN, ZM, ZW'.split(', ');

describe('tools/list', () => {
  it('lists one tool per operation and the two filter tools, each with a JSON Schema that compiles', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...OPERATIONS, 'check-filter', 'complete-filter']);
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.description, tool.name).toMatch(/^[A-Z].{40,}\.$/s);
    }
    // The descriptions carry the price of the interface (Limits and prices).
    expect(tools.find((tool) => tool.name === 'links')!.description).toContain('45 units per returned line');
    expect(tools.find((tool) => tool.name === 'metrics')!.description).toContain('20 units per request');
  });

  it('declares what each tool answers, and every answer and tool error matches it', async () => {
    // A session of its own: the other tests count this session's units.
    const own = await startSession(['--base-url', server.url], { BACKLINK_QUERY_API_KEY: KEYS[0].key });
    try {
      await answersMatchTheirSchemas(own);
    } finally {
      await own.close();
    }
  });

  it("gives metrics the interface's parameters, format aside", async () => {
    const { tools } = await session.client.listTools();
    const schema = tools.find((tool) => tool.name === 'metrics')!.inputSchema as Record<string, any>;
    expect(Object.keys(schema['properties'])).toEqual(['keyword', 'country', 'month']);
    expect(schema['required']).toEqual(['keyword', 'country']);
    expect(schema['additionalProperties']).toBe(false);
    expect(schema['properties'].keyword).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
    expect(schema['properties'].country.enum).toEqual(COUNTRIES);
    const month = new RegExp(schema['properties'].month.pattern);
    expect(['2012-01', '2026-06'].map((m) => month.test(m))).toEqual([true, true]);
    expect(['2026-13', '2026-6', '202606'].map((m) => month.test(m))).toEqual([false, false, false]);
  });

  it('gives comparison its urls and fields as arrays', async () => {
    const { tools } = await session.client.listTools();
    const schema = tools.find((tool) => tool.name === 'comparison')!.inputSchema as Record<string, any>;
    expect(Object.keys(schema['properties'])).toEqual(['urls', 'scope', 'fields']);
    expect(schema['required']).toEqual(['urls', 'scope']);
    expect(schema['properties'].urls).toMatchObject({ type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 10 });
    expect(schema['properties'].scope.enum).toEqual(['ROOT_DOMAIN', 'SUBDOMAIN', 'PAGE']);
    // The historical row's fields, and comparison's default list (service-interface.md).
    expect(schema['properties'].fields).toMatchObject({
      type: 'array',
      items: { type: 'string', enum: ['score', 'backlinks_count', 'domains_count', 'follows_count', 'month_date', 'url', 'scope'] },
      default: ['score', 'backlinks_count', 'domains_count', 'follows_count', 'url', 'scope'],
    });
  });

  it('names the fields a filter may use in the filter parameter', async () => {
    const { tools } = await session.client.listTools();
    const filter = (tools.find((tool) => tool.name === 'matrix')!.inputSchema as Record<string, any>)['properties'].filter;
    expect(filter.type).toBe('string');
    expect(filter.description).toContain('domain_score (integer)');
    expect(filter.description).toContain('backlinks_counts[1] (integer)');
    expect(filter.description).not.toContain('backlinks_counts (');
  });
});

describe('an operation call', () => {
  const filter = 'domain_score >= 60 AND is_nofollow = true';

  it('returns the rows the filter selects, as the service does for the same call', async () => {
    const result = await session.call('links', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['source_url', 'anchor'], filter });
    expect(result.isError, textOf(result)).toBeUndefined();
    // The fixture's links to example.com with domain_score 60 or more and nofollow (ids 2, 3, 4),
    // by page_score descending (70, 45, 30), the default order of links.
    const expected = [
      { source_url: 'https://gamma.io/review', anchor: 'Example' },
      { source_url: 'https://alpha.org/post-2', anchor: 'seo tips' },
      { source_url: 'https://beta.net/links', anchor: 'click here' },
    ];
    const structured = result.structuredContent as Record<string, any>;
    expect(structured['data']).toEqual(expected);
    expect(structured['units']).toBe(3 * 45);
    expect(structured['meta'].total).toBe(3);
    expect(structured['session']).toEqual({ units_spent: 135, budget_remaining: null });
    expect(textOf(result)).toMatch(/^3 rows · 135 units/);
    // One row at 1 unit a line: both in the singular. The fixture's one link to example.com/blogging (delta.de, score 25).
    const one = await session.call('score-profile', { url: 'https://example.com/blogging', scope: 'PAGE' });
    expect((one.structuredContent as Record<string, any>)['data']).toEqual([{ domain_score: 25, domains_count: 1 }]);
    expect(textOf(one)).toMatch(/^1 row · 1 unit \(session: 136 spent\)/);

    // The same call with a bare fetch.
    const query = new URLSearchParams({ url: 'example.com', scope: 'ROOT_DOMAIN', fields: 'source_url,anchor', filter });
    const response = await fetch(`${server.url}/_api/apis/v4/backlinks/v1/links?${query}`, { headers: { authorization: `Apikey ${KEYS[0].key}` } });
    expect(((await response.json()) as { data: unknown }).data).toEqual(expected);
  });

  it('returns one record for overview and metrics', async () => {
    const metrics = await session.call('metrics', { keyword: 'seo tools', country: 'us', month: '2026-05' });
    expect(metrics.isError, textOf(metrics)).toBeUndefined();
    // The latest snapshot of May 2026 (fixture): 49500.
    expect((metrics.structuredContent as Record<string, any>)['data'].search_volume).toBe('49500');
    expect((metrics.structuredContent as Record<string, any>)['units']).toBe(20);
  });

  it('reports every broken parameter rule, each with its parameter and suggestion, and sends nothing', async () => {
    const before = await unitsLeft();
    const result = await session.call('links', { url: 'example.com', scope: 'ROOT', limit: 0, fields: ['anchr'] });
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as Record<string, any>)['error'];
    expect(error.kind).toBe('invalid_parameters');
    expect(error.issues.map((issue: any) => [issue.parameter, issue.code])).toEqual([
      ['scope', 'invalid_value'],
      ['fields', 'unknown_field'],
      ['limit', 'too_small'],
    ]);
    expect(error.issues.find((issue: any) => issue.parameter === 'fields').suggestion).toBe('anchor');
    expect(textOf(result)).toContain('fields (unknown_field)');
    expect(await unitsLeft()).toBe(before);
  });

  it('refuses a parameter no tool takes, and a name the operation does not take', async () => {
    const format = await session.call('links', { url: 'example.com', scope: 'ROOT_DOMAIN', format: 'csv' });
    expect(format.isError).toBe(true);
    expect((format.structuredContent as Record<string, any>)['error'].issues[0]).toMatchObject({ parameter: 'format', code: 'unknown_parameter' });
    const typo = await session.call('links', { url: 'example.com', scope: 'ROOT_DOMAIN', limt: 5 });
    expect((typo.structuredContent as Record<string, any>)['error'].issues[0]).toMatchObject({ parameter: 'limt', code: 'unknown_parameter', suggestion: 'limit' });
    // The name offered once, bare, in the style of every surface (docs/cli.md, Mistakes on the command line).
    expect(textOf(typo)).toBe('Not sent: links was given an invalid parameter:\n- limt (unknown_parameter): links takes no parameter limt; did you mean limit?');
    const tool = await session.call('check-filtr', {});
    expect(textOf(tool).split(' The tools are: ')[0]).toBe('Unknown tool "check-filtr"; did you mean check-filter?');
  });

  it('reports every issue of an invalid filter with its place, and sends nothing', async () => {
    const before = await unitsLeft();
    const text = 'domain_scor > 50 AND anchor > 5';
    const result = await session.call('links', { url: 'example.com', scope: 'ROOT_DOMAIN', filter: text });
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as Record<string, any>)['error'];
    expect(error.kind).toBe('invalid_filter');
    expect(error.parameter).toBe('filter');
    // domain_scor at 0 (unknown, did you mean domain_score); a number compared with the string anchor at 30.
    expect(error.issues.map((issue: any) => [issue.code, issue.offset, issue.line, issue.column])).toEqual([
      ['unknown_field', 0, 1, 1],
      ['literal_type_mismatch', 30, 1, 31],
    ]);
    expect(error.issues[0].suggestion).toBe('domain_score');
    expect(textOf(result)).toContain('^^^^^^^^^^^');
    expect(await unitsLeft()).toBe(before);
  });

  it("returns the service's refusal with its envelope: a limit above the server's maximum", async () => {
    // The client cannot know the server's maximum (10,000 by default); the server answers 400.
    const wide = await startSession(['--base-url', server.url, '--max-call-units', '100000000'], { BACKLINK_QUERY_API_KEY: KEYS[0].key });
    try {
      const result = await wide.call('ref-ips', { url: 'example.com', scope: 'ROOT_DOMAIN', limit: 20_000 });
      expect(result.isError).toBe(true);
      const error = (result.structuredContent as Record<string, any>)['error'];
      expect([error.kind, error.status, error.code]).toEqual(['service', 400, 'invalid_request']);
      expect(error.details).toEqual([expect.objectContaining({ parameter: 'limit', rule: 'too_large' })]);
      expect(error.envelope.error.details[0].parameter).toBe('limit');
      expect(textOf(result)).toContain('limit (too_large)');
    } finally {
      await wide.close();
    }
  });

  it('answers an unknown tool with the closest name, and keeps serving', async () => {
    const result = await session.call('link', { url: 'example.com' });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as Record<string, any>)['error']).toMatchObject({ kind: 'unknown_tool', suggestion: 'links' });
    const after = await session.call('check-filter', { operation: 'links', filter: 'is_lost = false' });
    expect(after.isError).toBeUndefined();
  });
});

/** The fixture key's balance, read from the server (free). */
async function unitsLeft(): Promise<number> {
  const response = await fetch(`${server.url}/_api/apis/v4/units/v1/balance`, { headers: { authorization: `Apikey ${KEYS[0].key}` } });
  return ((await response.json()) as { data: { units_remaining: number } }).data.units_remaining;
}

describe('check-filter', () => {
  it('answers ok and the canonical text for a valid filter', async () => {
    const result = await session.call('check-filter', { operation: 'links', filter: "domain_score>50  and  anchor like '%seo%'" });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ ok: true, canonical: "domain_score > 50 AND anchor LIKE '%seo%'" });
  });

  it('answers every issue with its code, place and suggestion for an invalid one', async () => {
    const text = 'domain_score > 50 AND\n  anchr = "x"';
    const result = await session.call('check-filter', { operation: 'links', filter: text });
    expect(result.isError).toBeUndefined();
    const structured = result.structuredContent as Record<string, any>;
    expect(structured['ok']).toBe(false);
    // anchr starts at offset 24: line 2, column 3.
    expect(structured['issues']).toEqual([expect.objectContaining({ code: 'unknown_field', offset: 24, length: 5, line: 2, column: 3, suggestion: 'anchor' })]);
    expect(textOf(result)).toContain('2:3 unknown_field');
  });

  it('bounds backlinks_counts[n] by the targets of a matrix call', async () => {
    const result = await session.call('check-filter', { operation: 'matrix', filter: 'backlinks_counts[3] > 0', targets: 2 });
    // The place of the index, from [ to ] (filter-language.md, issue codes).
    expect((result.structuredContent as Record<string, any>)['issues'][0]).toMatchObject({ code: 'index_out_of_range', offset: 16, length: 3 });
  });

  it('answers an unknown operation as a tool error naming the parameter', async () => {
    const result = await session.call('check-filter', { operation: 'link', filter: 'x = 1' });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as Record<string, any>)['error'].issues[0]).toMatchObject({ parameter: 'operation', code: 'unknown_operation' });
    expect(textOf(result)).toContain('did you mean links?');
  });
});

describe('the filter tools under their former snake_case names', () => {
  it('answers check_filter and complete_filter as check-filter and complete-filter, without listing them', async () => {
    const checked = await session.call('check_filter', { operation: 'links', filter: 'domain_score>50' });
    expect(checked.structuredContent).toEqual({ ok: true, canonical: 'domain_score > 50' });
    const completed = await session.call('complete_filter', { operation: 'links', text: 'is_nofollow ' });
    expect(completed.isError).toBeUndefined();
    expect(((completed.structuredContent as Record<string, any>)['suggestions'] as Array<{ insert: string }>).map((s) => s.insert.trim()).sort()).toEqual(['!=', '=']);
  });
});

describe('complete-filter', () => {
  it('offers AND and OR after a whole condition, replacing the word being typed', async () => {
    const result = await session.call('complete-filter', { operation: 'links', text: 'domain_score > 5 AN', offset: 19 });
    expect(result.isError).toBeUndefined();
    const suggestions = (result.structuredContent as Record<string, any>)['suggestions'] as Array<Record<string, unknown>>;
    expect(suggestions).toContainEqual(expect.objectContaining({ label: 'AND', kind: 'keyword', from: 17, to: 19 }));
  });

  it('offers the operators a boolean takes, at the end of the text by default', async () => {
    const result = await session.call('complete-filter', { operation: 'links', text: 'is_nofollow ' });
    const inserts = ((result.structuredContent as Record<string, any>)['suggestions'] as Array<{ insert: string }>).map((s) => s.insert.trim());
    expect(inserts.sort()).toEqual(['!=', '=']);
  });

  it('answers an offset outside the text as a tool error naming offset', async () => {
    const result = await session.call('complete-filter', { operation: 'links', text: 'is_lost', offset: 99 });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as Record<string, any>)['error'].issues[0].parameter).toBe('offset');
  });
});

describe('complete-filter where there can be no filter', () => {
  it('answers an operation that takes no filter as filter_not_allowed, naming those that take one', async () => {
    // overview has no filter parameter (service-interface.md); links, ref-domains, anchors and matrix do.
    for (const text of ['', 'domain_sc']) {
      const result = await session.call('complete-filter', { operation: 'overview', text });
      expect(result.isError).toBe(true);
      const error = (result.structuredContent as Record<string, any>)['error'];
      expect(error).toMatchObject({ kind: 'filter_not_allowed', parameter: 'operation', operation: 'overview' });
      expect(error.operations).toEqual(expect.arrayContaining(['links', 'ref-domains', 'anchors', 'matrix']));
      expect(error.operations).not.toContain('overview');
      expect(error.issues).toEqual([expect.objectContaining({ code: 'filter_not_allowed', offset: 0, length: text.length })]);
      expect(textOf(result)).toContain('The operation overview takes no filter.');
      expect(textOf(result)).toContain('links');
    }
  });

  it('answers a cursor past 4,096 characters as too_long, as check-filter does for that text', async () => {
    const text = `anchor = '${'a'.repeat(5000)}`;
    const result = await session.call('complete-filter', { operation: 'links', text, offset: 4097 });
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as Record<string, any>)['error'];
    expect(error).toMatchObject({ kind: 'too_long', parameter: 'offset', offset: 4097, max_length: 4096 });
    expect(error.issues).toEqual([expect.objectContaining({ code: 'too_long', offset: 4096, length: 1 })]);
    expect(textOf(result)).toContain('4,096');
    const checked = await session.call('check-filter', { operation: 'links', filter: text });
    expect((checked.structuredContent as Record<string, any>)['issues'][0].code).toBe('too_long');
    // At the limit itself the cursor is inside the string: an empty list, not an error.
    const within = await session.call('complete-filter', { operation: 'links', text, offset: 4096 });
    expect(within.isError).toBeUndefined();
    expect((within.structuredContent as Record<string, any>)['suggestions']).toEqual([]);
  });
});

/** Calls each tool with answers and tool errors of every kind, and checks each against the tool's declared output schema. */
async function answersMatchTheirSchemas(session: Session): Promise<void> {
  const { tools } = await session.client.listTools();
  const ajv = new Ajv({ strict: false });
  const matches = (tool: string, structured: unknown) => {
    const schema = tools.find((t) => t.name === tool)!.outputSchema!;
    expect(schema.type, tool).toBe('object');
    const validate = ajv.compile(schema);
    return validate(structured) ? 'valid' : JSON.stringify(validate.errors);
  };
  for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  const answers: [string, Record<string, unknown>][] = [
    ['overview', { url: 'example.com', scope: 'ROOT_DOMAIN' }],
    ['links', { url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['source_url', 'domain_score'], limit: 2 }],
    ['matrix', { urls: ['example.com', 'rival.com'], scope: 'ROOT_DOMAIN', limit: 2 }],
    ['links', { url: 'example.com', scope: 'ROOT_DOMAIN', filter: 'domain_scor > 1' }],
    ['links', { url: 'example.com', scope: 'SOMEWHERE' }],
    ['check-filter', { operation: 'links', filter: 'domain_score > 1' }],
    ['check-filter', { operation: 'links', filter: 'domain_score >' }],
    ['complete-filter', { operation: 'links', text: 'domain_s' }],
    ['complete-filter', { operation: 'metrics', text: '' }],
  ];
  for (const [tool, args] of answers) {
    const result = await session.call(tool, args);
    expect(matches(tool, result.structuredContent), `${tool} ${JSON.stringify(args)}: ${textOf(result)}`).toBe('valid');
  }
  // And the schemas say something: a row with a field links has not, or a count as text, is refused.
  expect(matches('links', { data: [{ nothing: 1 }], units: 45, session: { units_spent: 45, budget_remaining: null } })).not.toBe('valid');
  expect(matches('overview', { data: { backlinks_count: '7' }, units: 1, session: { units_spent: 1, budget_remaining: null } })).not.toBe('valid');
  expect(matches('check-filter', { canonical: 'x' })).not.toBe('valid');
}
