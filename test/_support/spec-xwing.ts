import { createCipheriv, createDecipheriv, createHash, createHmac, createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto';
import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';

/**
 * The client's side of docs/spec.md §3.4 written from the spec, draft-connolly-cfrg-xwing-kem and
 * RFC 9180, nothing of src/ and nothing of the HPKE packages src/ uses: the X-Wing decapsulation built
 * from @noble/post-quantum's ML-KEM-768, Node's X25519 and SHA3-256 (and checked against noble's own
 * `ml_kem768_x25519`, which must be the same KEM), then the HPKE key schedule in base mode with
 * HMAC-SHA256 and AES-256-GCM from node:crypto. What the tests open an X-Wing wrap with.
 */
export interface SpecXWingWrapped {
  readonly algo: string;
  readonly enc: string;
  readonly ciphertext: string;
}

export const XWING_ALGO = 'hpke-xwing-hkdf-sha256-aes-256-gcm';
const b64 = (text: string) => Buffer.from(text, 'base64');

/** draft-connolly-cfrg-xwing-kem §5.2: XWingLabel, the ASCII bytes `\.//^\`. */
const XWING_LABEL = Buffer.from('5c2e2f2f5e5c', 'hex');
/** RFC 9180 §5.1 suite_id: "HPKE", KEM X-Wing 0x647a, KDF HKDF-SHA256 0x0001, AEAD AES-256-GCM 0x0002. */
const SUITE_ID = Buffer.concat([Buffer.from('HPKE'), Buffer.from([0x64, 0x7a, 0x00, 0x01, 0x00, 0x02])]);
/** DER prefixes of an X25519 PKCS#8 private key and SPKI public key (RFC 8410), before the 32 raw bytes. */
const X25519_PKCS8 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const X25519_SPKI = Buffer.from('302a300506032b656e032100', 'hex');

/** A client's X-Wing key pair as the spec asks: a fresh one, its 1,216-byte public key in base64. */
export function specXWingKey(): { secretKey: Uint8Array; publicKey: string } {
  const { secretKey, publicKey } = ml_kem768_x25519.keygen();
  return { secretKey, publicKey: Buffer.from(publicKey).toString('base64') };
}

function x25519(secret: Uint8Array, publicKey: Uint8Array): Buffer {
  return diffieHellman({
    privateKey: createPrivateKey({ key: Buffer.concat([X25519_PKCS8, secret]), format: 'der', type: 'pkcs8' }),
    publicKey: createPublicKey({ key: Buffer.concat([X25519_SPKI, publicKey]), format: 'der', type: 'spki' }),
  });
}

/** draft-connolly-cfrg-xwing-kem §5.2 expandDecapsulationKey: SHAKE256(sk, 96) -> ML-KEM-768 seed, X25519 secret. */
export function expandXWingKey(secretKey: Uint8Array) {
  const expanded = createHash('shake256', { outputLength: 96 }).update(secretKey).digest();
  const mlkem = ml_kem768.keygen(expanded.subarray(0, 64));
  const skX = expanded.subarray(64, 96);
  const privateX = createPrivateKey({ key: Buffer.concat([X25519_PKCS8, skX]), format: 'der', type: 'pkcs8' });
  const pkX = createPublicKey(privateX).export({ format: 'der', type: 'spki' }).subarray(X25519_SPKI.length);
  return { skM: mlkem.secretKey, pkM: mlkem.publicKey, skX, pkX };
}

/** draft-connolly-cfrg-xwing-kem §5.4 Decapsulate and §5.3 Combiner: SHA3-256(ss_M || ss_X || ct_X || pk_X || XWingLabel). */
export function xwingDecapsulate(enc: Uint8Array, secretKey: Uint8Array): Buffer {
  if (enc.length !== 1120) throw new Error(`enc is ${enc.length} bytes, not 1120`);
  const { skM, skX, pkX } = expandXWingKey(secretKey);
  const ctX = enc.subarray(1088, 1120);
  const ssM = ml_kem768.decapsulate(enc.subarray(0, 1088), skM);
  const ssX = x25519(skX, ctX);
  return createHash('sha3-256')
    .update(Buffer.concat([ssM, ssX, ctX, pkX, XWING_LABEL]))
    .digest();
}

/** RFC 9180 §4 LabeledExtract with HKDF-SHA256's Extract (HMAC keyed with the salt). */
function labeledExtract(salt: Buffer, label: string, ikm: Buffer): Buffer {
  return createHmac('sha256', salt)
    .update(Buffer.concat([Buffer.from('HPKE-v1'), SUITE_ID, Buffer.from(label), ikm]))
    .digest();
}

/** RFC 9180 §4 LabeledExpand, `length` at most 32: HKDF-Expand's first block T(1) = HMAC(prk, info || 0x01). */
function labeledExpand(prk: Buffer, label: string, info: Buffer, length: number): Buffer {
  const labeledInfo = Buffer.concat([
    Buffer.from([length >> 8, length & 0xff]),
    Buffer.from('HPKE-v1'),
    SUITE_ID,
    Buffer.from(label),
    info,
  ]);
  return createHmac('sha256', prk)
    .update(Buffer.concat([labeledInfo, Buffer.from([1])]))
    .digest()
    .subarray(0, length);
}

/** RFC 9180 §5.1 KeySchedule in mode_base (0x00), psk and psk_id empty: the AEAD key (32 bytes) and base_nonce (12). */
export function hpkeKeySchedule(sharedSecret: Buffer, info: string): { key: Buffer; baseNonce: Buffer } {
  const empty = Buffer.alloc(0);
  const context = Buffer.concat([
    Buffer.from([0x00]),
    labeledExtract(empty, 'psk_id_hash', empty),
    labeledExtract(empty, 'info_hash', Buffer.from(info)),
  ]);
  const secret = labeledExtract(sharedSecret, 'secret', empty);
  return { key: labeledExpand(secret, 'key', context, 32), baseNonce: labeledExpand(secret, 'base_nonce', context, 12) };
}

/**
 * Opens an X-Wing wrap (docs/spec.md §3.4 items 1-3): `algo` names the suite, X-Wing decapsulates
 * `enc`, the key schedule gives key and base_nonce, and the first Open (sequence 0, nonce = base_nonce)
 * is AES-256-GCM of `ciphertext` (the tag its last 16 bytes) with empty aad.
 */
export function specXWingUnwrap(wrapped: SpecXWingWrapped, secretKey: Uint8Array, info: string): Buffer {
  if (wrapped.algo !== XWING_ALGO) throw new Error(`algo ${wrapped.algo}`);
  const { key, baseNonce } = hpkeKeySchedule(xwingDecapsulate(b64(wrapped.enc), secretKey), info);
  const sealed = b64(wrapped.ciphertext);
  const decipher = createDecipheriv('aes-256-gcm', key, baseNonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

/** The sender's side of the same schedule, for a test that needs a wrap made outside src/ (a forged one). */
export function specXWingSeal(publicKey: Uint8Array, info: string, plaintext: Uint8Array): SpecXWingWrapped {
  const { cipherText, sharedSecret } = ml_kem768_x25519.encapsulate(publicKey);
  const { key, baseNonce } = hpkeKeySchedule(Buffer.from(sharedSecret), info);
  const cipher = createCipheriv('aes-256-gcm', key, baseNonce);
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { algo: XWING_ALGO, enc: Buffer.from(cipherText).toString('base64'), ciphertext: sealed.toString('base64') };
}
