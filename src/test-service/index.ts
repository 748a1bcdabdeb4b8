/**
 * `backlink-query/testing`: fast-check arbitraries for fuzzing code that produces or consumes
 * filters, such as your own endpoint, and {@link createTestService}, a stand-in for the service in
 * your own tests. fast-check is a peer dependency of this entry only; without it, importing the
 * entry throws an error whose message says `npm install fast-check`. The test service's server
 * (an optional dependency of backlink-query) is loaded on its first call only.
 *
 * The arbitraries live in `src/testing/` (layer 7, beside the language they draw); this file, the
 * entry, sits above the server with the test service, and re-exports them.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { filterTextArbitrary, invalidFilterArbitrary } from 'backlink-query/testing';
 * fc.assert(fc.property(filterTextArbitrary('links'), (text) => myService.accepts(text)));
 * fc.assert(fc.property(invalidFilterArbitrary('links'), ({ text, code }) => myService.rejects(text, code)));
 * ```
 *
 * @module testing
 */
export * from '../testing/index.js';
export { createTestService } from './service.js';
export { TEST_SERVICE_KEY, TEST_SERVICE_URL, type TestLink, type TestSampleOptions, type TestService, type TestServiceOptions } from './options.js';
