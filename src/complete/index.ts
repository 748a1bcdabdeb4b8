/**
 * Completion of filter text (`complete`) and its types.
 *
 * @module
 */
export { complete } from './complete.js';
export type { Completion, CompletionKind, CompletionOptions } from './types.js';
