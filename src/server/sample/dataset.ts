/**
 * The shapes the sample generator produces; they are the store's input shapes
 * (`../store/inputs.ts`), re-exported here for the generator's modules.
 *
 * @module
 */
export { classC, type DomainInput, type KeywordSnapshotInput, type LinkInput, type TargetPageInput } from '../store/inputs.js';
