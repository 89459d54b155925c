import { token } from './token.js';

/**
 * Where the gateway gets a trusted issuer's published key set (docs/spec.md §4.24 item 4): fetched
 * safely, cached, refetched at most once per cool-down when a token names a `kid` the cached set lacks.
 *
 * Contract: `keySet` answers the JSON `{ keys }` published at `uri` (not checked further: the key
 * server verifies with it), or throws WRONG_CREDENTIAL whose detail begins `jwks: ` when it cannot be
 * had (refused address or scheme, redirect, timeout, too large, not a key set). It never waits past its
 * timeout. `health` is `unavailable` while the last fetch of some issuer's set failed.
 */
export interface KeySetSource {
  keySet(issuer: string, uri: string, kid: string | undefined): Promise<unknown>;
  /** undefined until some key set was asked for. */
  health(): 'ok' | 'unavailable' | undefined;
}

export const KEY_SET_SOURCE = token<KeySetSource>('KeySetSource');
