import type { CipherSuite } from '@hpke/core';

/**
 * The HPKE suite of the post-quantum wrap (docs/spec.md §3.4): RFC 9180 base mode with the KEM X-Wing
 * (0x647a, draft-connolly-cfrg-xwing-kem), HKDF-SHA256 (0x0001) and AES-256-GCM (0x0002), all from the
 * maintained packages (@hpke/core, @hpke/hybridkem-x-wing): no KEM nor HPKE written here. Both sides
 * use it, the wrapping one (src/crypto/xwing-wrap.ts) and the client that opens (src/client/xwing-key.ts):
 * this file imports no Node built-in, so it bundles for the browser.
 */

/** An X-Wing public key: the ML-KEM-768 encapsulation key (1,184 bytes), then the X25519 public key (32). */
export const XWING_PUBLIC_KEY_BYTES = 1216;
/** An X-Wing private key: its 32-byte seed. */
export const XWING_PRIVATE_KEY_BYTES = 32;
/** The encapsulated key `enc`: the ML-KEM-768 ciphertext (1,088 bytes), then the X25519 ephemeral key (32). */
export const XWING_ENC_BYTES = 1120;
/** The randomness of one X-Wing encapsulation: 32 bytes for ML-KEM-768, then 32 for the X25519 ephemeral key. */
export const XWING_ENCAP_SEED_BYTES = 64;
/** The AES-256-GCM tag at the end of `ciphertext`. */
export const XWING_TAG_BYTES = 16;
/** The answer's `algo`: the suite's name (docs/spec.md §3.4 item 2). */
export const XWING_WRAP_ALGO = 'hpke-xwing-hkdf-sha256-aes-256-gcm';
/** The HPKE `info` of an export's wrap (docs/spec.md §3.4 item 1). */
export const XWING_EXPORT_INFO = 'keygate export v2';
/** The HPKE `info` of a data key's wrap (docs/spec.md §3.4 item 1, §4.5a item 4): a wrapped export is no wrapped data key. */
export const XWING_DATAKEY_INFO = 'keygate datakey v2';
export type XWingWrapInfo = typeof XWING_EXPORT_INFO | typeof XWING_DATAKEY_INFO;

/** A key wrapped to an X-Wing public key (docs/spec.md §3.4 item 2): `enc` and `ciphertext` in standard base64. */
export interface XWingWrappedKey {
  readonly algo: typeof XWING_WRAP_ALGO;
  readonly enc: string;
  readonly ciphertext: string;
}

let suite: Promise<CipherSuite> | undefined;

/** The one suite instance (it holds no key: each wrap and each unwrap makes its own context). */
export function xwingSuite(): Promise<CipherSuite> {
  suite ??= loadSuite();
  return suite;
}

/**
 * The packages load on first use: a bundle whose page never wraps to X-Wing does not carry them (the
 * operator console imports keygate/client and keeps within its size budget).
 */
async function loadSuite(): Promise<CipherSuite> {
  const [{ Aes256Gcm, CipherSuite, HkdfSha256 }, { XWing }] = await Promise.all([import('@hpke/core'), import('@hpke/hybridkem-x-wing')]);
  return new CipherSuite({ kem: new XWing(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
}

/** Bytes in a buffer of their own: the suite reads a key's whole `buffer`, so a view into a pool will not do. */
export function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}
