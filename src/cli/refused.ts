/**
 * The CLI's refusal to spend units without a confirmation it cannot ask for.
 *
 * @module
 * @internal
 */

import { errorBrand } from '../shared/brand.js';

/** A call was refused: above the confirmation threshold with no terminal to ask, or declined. @internal */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
  constructor(message: string) {
    super(message);
    REFUSED.mark(this);
  }
}

const REFUSED = /* @__PURE__ */ errorBrand<RefusedError>('RefusedError');

/** Whether `value` is a {@link RefusedError}. @internal */
export const isRefusedError = REFUSED.is;
