import { toBase64url, utf8 } from './base64.js';
import { sha256, subtle } from './web-crypto.js';

/** The public half of a proof key as a JWK: an EC P-256 point, nothing private. */
export interface PublicJwk {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
}

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * The key a page holds to sign its proofs (docs/spec.md §5.2: a browser's P-256 keypair signs with
 * ES256). The private key is generated non-extractable: script can sign with it, never read it.
 * A page that must survive a reload may keep the CryptoKeyPair in IndexedDB and bring it back with
 * `fromKeyPair`; the private key stays non-extractable there too.
 */
export class ProofKey {
  readonly #privateKey: CryptoKey;
  /** The JWK sent as `senderKey` when a scoped session is minted, and in every proof header. */
  readonly publicJwk: PublicJwk;
  /** RFC 7638 thumbprint of `publicJwk`: the `jkt` a session bound to this key shows. */
  readonly jkt: string;

  private constructor(privateKey: CryptoKey, publicJwk: PublicJwk, jkt: string) {
    this.#privateKey = privateKey;
    this.publicJwk = publicJwk;
    this.jkt = jkt;
  }

  static async generate(): Promise<ProofKey> {
    const pair = await subtle().generateKey(ECDSA_P256, false, ['sign', 'verify']);
    return ProofKey.fromKeyPair(pair);
  }

  static async fromKeyPair(pair: CryptoKeyPair): Promise<ProofKey> {
    const jwk = await subtle().exportKey('jwk', pair.publicKey);
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new TypeError('a proof key must be EC P-256');
    const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
    return new ProofKey(pair.privateKey, publicJwk, await jwkThumbprint(publicJwk));
  }

  /** Whether the private key can be read out by script (it cannot, for a generated key). */
  get extractable(): boolean {
    return this.#privateKey.extractable;
  }

  /** ES256: ECDSA P-256 with SHA-256, as the 64-byte r||s that JWS uses (RFC 7518 §3.4). */
  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    return new Uint8Array(
      await subtle().sign({ name: 'ECDSA', hash: 'SHA-256' }, this.#privateKey, signingInput as Uint8Array<ArrayBuffer>),
    );
  }
}

/** RFC 7638 §3.2: the required members in lexicographic order, no whitespace, then SHA-256. */
export async function jwkThumbprint(jwk: PublicJwk): Promise<string> {
  const canonical = `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}","y":"${jwk.y}"}`;
  return toBase64url(await sha256(utf8(canonical)));
}
