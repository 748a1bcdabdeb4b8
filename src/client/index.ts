/**
 * Work in progress.
 *
 * @module
 */
export {};
