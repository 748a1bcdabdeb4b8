/**
 * The units balance: where a key reads its remaining units, for the server that answers it and
 * the client that calls it. Not one of the interface's twelve operations (the interface only
 * reports the balance in response headers); our addition, free of charge, keyed like an
 * operation.
 *
 * @module
 */

/**
 * The path of the balance, in the interface's scheme (`/_api/apis/v4/<area>/v1/<name>`) with the
 * area `units`; the server also answers it without `/_api`, as it does every operation.
 *
 * @example
 * ```ts
 * fetch(`${baseUrl}${BALANCE_PATH}`, { headers: { Authorization: `Apikey ${key}` } });
 * ```
 */
export const BALANCE_PATH = '/_api/apis/v4/units/v1/balance';

/** The body of a balance answer. */
export interface BalanceResponse {
  readonly meta: { readonly request_id: string; readonly status_code: 200; readonly success: true };
  readonly data: { readonly units_remaining: number };
}
