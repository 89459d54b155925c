import {
  CLIENT_PUBLIC_KEY_BYTES,
  type ClientKeyError,
  checkClientPointForm,
  DATAKEY_WRAP_INFO,
  EXPORT_WRAP_INFO,
  type PreparedWrap,
  prepareWrap,
  type WrappedKey,
} from './p256-wrap.js';
import type { RandomSource } from './random-source.js';
import { XWING_DATAKEY_INFO, XWING_EXPORT_INFO, XWING_PUBLIC_KEY_BYTES, type XWingWrappedKey } from './xwing-suite.js';
import { type PreparedXWingWrap, prepareXWingWrap } from './xwing-wrap.js';

/**
 * The wrap of a key to the client's key, of either kind, told apart by its length alone
 * (docs/spec.md §3.4): 65 bytes is a P-256 point (§3.1, §3.2), 1,216 bytes an X-Wing public key (§3.4), anything
 * else a bad request. The /api export (the gateway) and the data keys (the key server) take both; the
 * root surface's export takes P-256 only (src/crypto/p256-wrap.ts alone).
 */

/** What is wrapped, which names the `info` of either wrap (docs/spec.md §3.2, §3.4 item 1, §4.5a item 4). */
export type WrapPurpose = 'export' | 'datakey';
/** A wrap of either kind, as `wrapped` answers it. */
export type ClientWrappedKey = WrappedKey | XWingWrappedKey;
/** A prepared wrap of either kind: `await wrap.seal(key)` finishes both. */
export type PreparedClientWrap = PreparedWrap | PreparedXWingWrap;

const P256_INFO = { export: EXPORT_WRAP_INFO, datakey: DATAKEY_WRAP_INFO } as const;
const XWING_INFO = { export: XWING_EXPORT_INFO, datakey: XWING_DATAKEY_INFO } as const;

/** The form checks of a `clientPubKey` of either kind (docs/spec.md §3.4): its length, and a P-256 point's prefix. */
export function checkClientKeyForm(key: Uint8Array, BadRequest: ClientKeyError): void {
  if (key.length === XWING_PUBLIC_KEY_BYTES) return;
  if (key.length !== CLIENT_PUBLIC_KEY_BYTES) {
    throw new BadRequest(
      `clientPubKey: expected ${CLIENT_PUBLIC_KEY_BYTES} bytes (P-256) or ${XWING_PUBLIC_KEY_BYTES} (X-Wing), got ${key.length}`,
    );
  }
  checkClientPointForm(key, BadRequest);
}

/**
 * The part of the wrap that needs no key material, for the kind of key `clientPublicKey` is (it must
 * have passed `checkClientKeyForm`): the P-256 ECDH, salt, iv and HKDF (§3.2), or the X-Wing
 * encapsulation (§3.4). A key either refuses is `BadRequest`.
 */
export async function prepareClientWrap(
  clientPublicKey: Uint8Array,
  random: RandomSource,
  purpose: WrapPurpose,
  BadRequest: ClientKeyError,
): Promise<PreparedClientWrap> {
  if (clientPublicKey.length === XWING_PUBLIC_KEY_BYTES) {
    return prepareXWingWrap(clientPublicKey, random, XWING_INFO[purpose], BadRequest);
  }
  return prepareWrap(clientPublicKey, random, P256_INFO[purpose], BadRequest);
}
