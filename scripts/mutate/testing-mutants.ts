/**
 * Mutants of the test service (`src/test-service/start.ts`, `createTestService`): how given
 * links are completed and loaded, which data it holds, and its `fetch`.
 *
 * @internal
 * @module
 */
import type { Mutant } from './mutant.js';

/** Hand-made links, answers written by hand from the interface and docs/testing.md. */
const SERVICE = ['test/testing/test-service.test.ts'];
const FILE = 'src/test-service/start.ts';
/** The generated sample: its keyword metrics against those `seedSample` writes, given keywords over them. */
const SAMPLE = ['test/testing/test-service-entry.test.ts'];

export const TESTING_MUTANTS: readonly Mutant[] = [
  { name: 'test-service-no-derived-domains', area: 'test service', file: FILE, find: '  await writer.domains(derived.records(), { keep: true });\n', replace: '', tests: SERVICE, project: 'all' },
  {
    name: 'test-service-no-source-domain',
    area: 'test service',
    file: FILE,
    find: "  if (source !== undefined) full['source_domain'] = source.domain;\n",
    replace: '',
    tests: SERVICE,
    project: 'all',
  },
  { name: 'test-service-integer-default-one', area: 'test service', file: FILE, find: "type === 'integer' ? 0 :", replace: "type === 'integer' ? 1 :", tests: SERVICE, project: 'all' },
  { name: 'test-service-record-index-from-one', area: 'test service', file: FILE, find: 'links[${first.line - 1}]', replace: 'links[${first.line}]', tests: SERVICE, project: 'all' },
  {
    name: 'test-service-sample-beside-given',
    area: 'test service',
    file: FILE,
    find: '(options.sample === undefined && !given)',
    replace: '(options.sample === undefined)',
    tests: SERVICE,
    project: 'all',
  },
  { name: 'test-service-sample-keywords-never-written', area: 'test service', file: FILE, find: '            await keywords();\n', replace: '', tests: SAMPLE, project: 'all' },
  {
    name: 'test-service-sample-keywords-after-given',
    area: 'test service',
    file: FILE,
    find: 'if (options.keywords !== undefined) await keywords();',
    replace: 'if (options.keywords === null) await keywords();',
    tests: SAMPLE,
    project: 'all',
  },
  {
    name: 'sqlite-keyword-earlier-row-kept',
    area: 'test service',
    file: 'src/server/store/engines/sqlite/sqlite-store.ts',
    find: "ON CONFLICT (${KEYWORD_KEY.join(', ')}) DO UPDATE SET ${updates.join(', ')}",
    replace: "ON CONFLICT (${KEYWORD_KEY.join(', ')}) DO NOTHING",
    tests: SAMPLE,
    project: 'all',
  },
  { name: 'test-service-open-after-close', area: 'test service', file: FILE, find: 'injectFetch(app, () => closing !== undefined)', replace: 'injectFetch(app, () => false)', tests: SERVICE, project: 'all' },
];
