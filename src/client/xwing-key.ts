import { ownBytes, XWING_DATAKEY_INFO, XWING_EXPORT_INFO, XWING_WRAP_ALGO, xwingSuite } from '../crypto/xwing-suite.js';
import { type Bytes, fromBase64, toBase64, utf8 } from './base64.js';
import { ExportUnwrapError } from './export-key.js';
import type { components } from './openapi-types.js';

/** A key wrapped to an X-Wing public key with HPKE (docs/spec.md §3.4 item 2): as openapi.json describes it. */
export type XWingWrappedKey = Extract<components['schemas']['ClientWrappedKey'], { enc: string }>;
/** What an X-Wing wrap delivers, which names its HPKE `info` (docs/spec.md §3.4 item 1). */
export type XWingWrapPurpose = 'export' | 'datakey';

const INFO: Readonly<Record<XWingWrapPurpose, string>> = { export: XWING_EXPORT_INFO, datakey: XWING_DATAKEY_INFO };
const ENC_BYTES = 1120;

/**
 * The client's ephemeral X-Wing key pair for one request (docs/spec.md §3.4 item 3: a fresh pair for
 * every export or data key). `publicKey` is the 1,216-byte public key in standard base64, the
 * `clientPubKey` of the request. WebCrypto has no X-Wing: the private key is the HPKE package's key
 * object, kept in a private field and never shown (`toJSON` and `inspect` show the public key alone).
 */
export class XWingKeyPair {
  readonly #privateKey: CryptoKey;
  readonly publicKey: string;

  private constructor(privateKey: CryptoKey, publicKey: string) {
    this.#privateKey = privateKey;
    this.publicKey = publicKey;
  }

  static async generate(): Promise<XWingKeyPair> {
    const suite = await xwingSuite();
    const pair = await suite.kem.generateKeyPair();
    const raw = new Uint8Array(await suite.kem.serializePublicKey(pair.publicKey));
    return new XWingKeyPair(pair.privateKey, toBase64(raw));
  }

  /** Opens an export wrapped to this key (HPKE info `keygate export v2`) and answers the key's bytes. */
  unwrap(wrapped: XWingWrappedKey): Promise<Bytes> {
    return openXWing(wrapped, this.#privateKey, 'export');
  }

  /** Opens a data key wrapped to this key by the key server (HPKE info `keygate datakey v2`). */
  unwrapDataKey(wrapped: XWingWrappedKey): Promise<Bytes> {
    return openXWing(wrapped, this.#privateKey, 'datakey');
  }

  toJSON(): { publicKey: string } {
    return { publicKey: this.publicKey };
  }
}

/** A fresh X-Wing key pair (docs/spec.md §3.4 item 3): one per export or data key, never reused. */
export function newXWingKeyPair(): Promise<XWingKeyPair> {
  return XWingKeyPair.generate();
}

/**
 * Opens an X-Wing wrap (docs/spec.md §3.4 item 3) with the key pair it was made to: `SetupBaseR(enc,
 * skR, info)` then `Open(aad = empty, ciphertext)`, `info` by what was wrapped (an export by default).
 * A wrap of another suite, of the wrong size, to another key or changed in any byte is refused
 * (`ExportUnwrapError`).
 */
export function unwrapXWing(wrapped: XWingWrappedKey, keyPair: XWingKeyPair, purpose: XWingWrapPurpose = 'export'): Promise<Bytes> {
  return purpose === 'export' ? keyPair.unwrap(wrapped) : keyPair.unwrapDataKey(wrapped);
}

async function openXWing(wrapped: XWingWrappedKey, privateKey: CryptoKey, purpose: XWingWrapPurpose): Promise<Bytes> {
  if (wrapped?.algo !== XWING_WRAP_ALGO) throw new ExportUnwrapError(`X-Wing envelope: algo is not ${XWING_WRAP_ALGO}`);
  const enc = decoded(wrapped.enc, 'enc');
  if (enc.length !== ENC_BYTES) throw new ExportUnwrapError(`X-Wing envelope: enc is ${enc.length} bytes, not ${ENC_BYTES}`);
  const ciphertext = decoded(wrapped.ciphertext, 'ciphertext');
  try {
    const recipient = await (await xwingSuite()).createRecipientContext({
      recipientKey: privateKey,
      enc: enc.buffer,
      info: utf8(INFO[purpose]).buffer,
    });
    return new Uint8Array(await recipient.open(ownBytes(ciphertext).buffer));
  } catch (cause) {
    throw new ExportUnwrapError('the X-Wing envelope did not open', { cause });
  }
}

function decoded(text: unknown, field: string): Bytes {
  try {
    return fromBase64(String(text ?? ''));
  } catch {
    throw new ExportUnwrapError(`X-Wing envelope: ${field} is not base64`);
  }
}
