import { type Bytes, fromBase64, toBase64, utf8 } from './base64.js';
import type { components } from './openapi-types.js';
import { subtle } from './web-crypto.js';

type WrappedKeyAnswer = components['schemas']['WrappedKey'];

/** The wrapped key envelope of an export or a data key (docs/spec.md §3), every field standard base64: as openapi.json describes it. */
export type WrappedKey = WrappedKeyAnswer['wrapped'];

/** The wrap's fixed parameters (docs/spec.md §3.2); a data key's wrap differs by its HKDF info (§4.5a item 4). */
const EXPORT_INFO = 'keygate export v1';
const DATAKEY_INFO = 'keygate datakey v1';
const SIZES = { gatewayPubKey: 65, salt: 16, iv: 12, authTag: 16 } as const;
const ECDH_P256 = { name: 'ECDH', namedCurve: 'P-256' } as const;

/** An envelope that does not open: wrong shape, wrong key, or tampered with (GCM tag mismatch). */
export class ExportUnwrapError extends Error {
  override readonly name = 'ExportUnwrapError';
}

/**
 * The client's ephemeral key for one export (docs/spec.md §3.2: a fresh keypair per export, the private
 * key non-extractable). `publicKey` is the raw uncompressed point (0x04 || X || Y, 65 bytes) in
 * standard base64, the `clientPubKey` of the export request.
 */
export class ExportKey {
  readonly #privateKey: CryptoKey;
  readonly publicKey: string;

  private constructor(privateKey: CryptoKey, publicKey: string) {
    this.#privateKey = privateKey;
    this.publicKey = publicKey;
  }

  static async generate(): Promise<ExportKey> {
    const pair = await subtle().generateKey(ECDH_P256, false, ['deriveBits']);
    const raw = new Uint8Array(await subtle().exportKey('raw', pair.publicKey));
    return new ExportKey(pair.privateKey, toBase64(raw));
  }

  /** Opens an envelope wrapped to this key and answers the raw data key. */
  unwrap(wrapped: WrappedKey): Promise<Bytes> {
    return unwrapExport(wrapped, this.#privateKey);
  }

  /** Opens a data key wrapped to this key by the key server (docs/spec.md §4.5a item 4). */
  unwrapDataKey(wrapped: WrappedKey): Promise<Bytes> {
    return unwrapEnvelope(wrapped, this.#privateKey, DATAKEY_INFO);
  }
}

/**
 * The export unwrap with WebCrypto alone (docs/spec.md §3.2): the shared secret is the
 * 32-byte X coordinate of ECDH(client private key, gatewayPubKey) (`deriveBits`), the AES key is
 * HKDF-SHA256(secret, salt, info `keygate export v1`, 32 bytes), and the data key is the AES-256-GCM
 * decryption of `ciphertext` with `iv` and the 16-byte `authTag`, no additional data.
 */
export function unwrapExport(wrapped: WrappedKey, privateKey: CryptoKey): Promise<Bytes> {
  return unwrapEnvelope(wrapped, privateKey, EXPORT_INFO);
}

/** The unwrap of docs/spec.md §3.2 with the HKDF info of what was wrapped (an export, a data key). */
async function unwrapEnvelope(wrapped: WrappedKey, privateKey: CryptoKey, info: string): Promise<Bytes> {
  const parts = decodeEnvelope(wrapped);
  try {
    const gatewayKey = await subtle().importKey('raw', parts.gatewayPubKey, ECDH_P256, false, []);
    const shared = await subtle().deriveBits({ name: 'ECDH', public: gatewayKey }, privateKey, 256);
    const hkdfKey = await subtle().importKey('raw', shared, 'HKDF', false, ['deriveKey']);
    const aesKey = await subtle().deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: parts.salt, info: utf8(info) },
      hkdfKey,
      { name: 'AES-GCM', length: 256 },
      false,
      ['decrypt'],
    );
    // WebCrypto takes the GCM tag appended to the ciphertext.
    const sealed = new Uint8Array(parts.ciphertext.length + parts.authTag.length);
    sealed.set(parts.ciphertext);
    sealed.set(parts.authTag, parts.ciphertext.length);
    return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: parts.iv, tagLength: 128 }, aesKey, sealed));
  } catch (cause) {
    throw new ExportUnwrapError('the export envelope did not open', { cause });
  }
}

function decodeEnvelope(wrapped: WrappedKey): Record<keyof WrappedKey, Bytes> {
  const decoded = {} as Record<keyof WrappedKey, Bytes>;
  for (const field of ['gatewayPubKey', 'salt', 'iv', 'ciphertext', 'authTag'] as const) {
    let bytes: Bytes;
    try {
      bytes = fromBase64(String(wrapped?.[field] ?? ''));
    } catch {
      throw new ExportUnwrapError(`export envelope: ${field} is not base64`);
    }
    const size = field === 'ciphertext' ? undefined : SIZES[field];
    if (size !== undefined && bytes.length !== size)
      throw new ExportUnwrapError(`export envelope: ${field} is ${bytes.length} bytes, not ${size}`);
    decoded[field] = bytes;
  }
  return decoded;
}
