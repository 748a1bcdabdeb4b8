/**
 * The CLI's refusal to spend units without a confirmation it cannot ask for.
 *
 * @module
 * @internal
 */

/** A call was refused: above the confirmation threshold with no terminal to ask, or declined. @internal */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
}
