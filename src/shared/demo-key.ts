/**
 * The demo key: the one key `serve --sample` accepts when none is configured (so the README's
 * calls work), the key the playground starts with, and the test service's key when it is given
 * none. Written once here, below everything that names it.
 *
 * @module
 * @internal
 */

/** The demo key (`bq_demo_key_0123456789`). @internal */
export const DEMO_KEY = 'bq_demo_key_0123456789';
