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
  { name: 'test-service-no-host', area: 'test service', file: FILE, find: 'const headers: Record<string, string> = { host: url.host };', replace: 'const headers: Record<string, string> = {};', tests: SERVICE, project: 'all' },
  { name: 'test-service-open-after-close', area: 'test service', file: FILE, find: 'injectFetch(app, () => closing !== undefined)', replace: 'injectFetch(app, () => false)', tests: SERVICE, project: 'all' },
];
