import { CompactSign } from 'jose';
import type { Right } from '../../wire/acl.js';
import type { SignRequest, SignResult, VerifySignatureRequest, VerifySignatureResult } from '../../wire/crypto-messages.js';
import type { KeyUse } from '../../wire/key-view.js';
import type { OperationResult } from '../../wire/keyserver-operations.js';
import type { Operation } from '../../wire/operations.js';
import { KidNotFoundError } from '../model/key-server-errors.js';
import { signInput, verifyInput } from '../model/signature-crypto.js';
import type { EngineContext, TokenContext } from './engine-context.js';
import type { KeyRow, SigningKeyRow } from './engine-model.js';
import { requireNotDeleted, requireUsableKey } from './engine-views.js';
import { jwtClaimsOf, jwtHeaderOf } from './jwt-rules.js';
import { noteKeyUse, resolvedOf } from './key-use.js';
import { newestOf, newestVersion, usableVersion, versionOf } from './key-versions.js';
import { checkVersionChoice, signedInputOf, signingOf } from './sign-request.js';
import { keyJwks } from './signing-jwks.js';
import type { ParsedVersion, SigningKeyCache } from './signing-key-cache.js';

type Resolved = { resolved?: string };
/** A signing item performed, for a batch: the key it used and its result. */
export type SigningDone<R> = { readonly key: KeyRow; readonly result: R };

/**
 * Signing keys at work (docs/spec.md §4.25 items 3 to 6), inside the key server: the private key is
 * parsed here (once per version, `SigningKeyCache`) and never leaves. Role, then ACL right, then
 * scope, then the key's state, then its type. Sign and sign-jwt need `crypto.sign` and the right
 * `sign`; verify `crypto.verify` and `read` (a disabled key refuses it, as MAC verify, KEY_DISABLED);
 * public key and JWKS `keys.public-key` and `read`, of any key not deleted.
 */
export class SigningOperations {
  readonly #ctx: EngineContext;
  readonly #cache: SigningKeyCache;

  constructor(ctx: EngineContext, cache: SigningKeyCache) {
    this.#ctx = ctx;
    this.#cache = cache;
  }

  async sign(token: string, ttag: string, request: SignRequest): Promise<SignResult & Resolved> {
    const done = await this.signItem(await this.#caller(token, 'crypto.sign'), { ttag, ...request });
    return this.#used(ttag, done, 'sign');
  }

  async verify(token: string, ttag: string, request: VerifySignatureRequest): Promise<VerifySignatureResult & Resolved> {
    const done = await this.verifyItem(await this.#caller(token, 'crypto.verify'), { ttag, ...request });
    return this.#used(ttag, done, 'sign.verify');
  }

  /** A batch's sign item, its caller's token and role checked already (src/keyserver/engine/crypto-operations.ts). */
  async signItem(caller: TokenContext, item: { readonly ttag: string } & SignRequest): Promise<SigningDone<SignResult>> {
    const input = signedInputOf(item);
    const key = await this.#usableKey(caller, item.ttag, 'sign');
    const signing = signingOf(key, item.alg);
    const { version, material } = newestOf(key);
    const parsed = this.#parsed(key, signing, version, material);
    const signature = signInput(parsed, item.alg, input, () => this.#ctx.random.bytes('digest' in input ? input.digest.length : 0));
    return { key, result: { signature, alg: item.alg, version, kid: parsed.jwk.kid, type: signing.type } };
  }

  /**
   * A batch's verify item: by the version `version` or `kid` names (a retired one KEY_VERSION_RETIRED,
   * an unknown one KEY_VERSION_NOT_FOUND), else by each version not retired, newest first.
   */
  async verifyItem(
    caller: TokenContext,
    item: { readonly ttag: string } & VerifySignatureRequest,
  ): Promise<SigningDone<VerifySignatureResult>> {
    checkVersionChoice(item);
    const input = signedInputOf(item);
    const key = await this.#usableKey(caller, item.ttag, 'read');
    const signing = signingOf(key, item.alg);
    for (const version of this.#candidates(key, signing, item)) {
      const parsed = this.#parsed(key, signing, version, usableVersion(key, version).material);
      if (verifyInput(parsed, item.alg, input, item.signature))
        return { key, result: { valid: true, version, kid: parsed.jwk.kid, type: signing.type } };
    }
    return { key, result: { valid: false, type: signing.type } };
  }

  /**
   * A compact JWS signed with jose under the key's `alg` and newest version (docs/spec.md §4.25 item 5),
   * its header `alg`, `kid` and `typ` (JWT unless given), its claims checked against the engine's clock.
   */
  async signJwt(
    token: string,
    ttag: string,
    request: { readonly claims: Readonly<Record<string, unknown>>; readonly header?: Readonly<Record<string, unknown>> | undefined },
  ): Promise<OperationResult<'signJwt'>> {
    const header = jwtHeaderOf(request.header);
    const key = await this.#usableKey(await this.#caller(token, 'crypto.sign'), ttag, 'sign');
    const signing = signingOf(key);
    const claims = jwtClaimsOf(request.claims, Math.floor(this.#ctx.now() / 1000), signing.jwtMaxLifetime);
    const { version, material } = newestOf(key);
    const parsed = this.#parsed(key, signing, version, material);
    const jwt = await new CompactSign(Buffer.from(JSON.stringify(claims)))
      .setProtectedHeader({ ...header, alg: signing.alg, kid: parsed.jwk.kid })
      .sign(parsed.privateKey);
    return this.#used(ttag, { key, result: { jwt, alg: signing.alg, version, kid: parsed.jwk.kid, type: signing.type } }, 'sign-jwt');
  }

  /** A version's public key, the newest by default, retired ones too (docs/spec.md §4.25 item 6). */
  async publicKey(token: string, ttag: string, asked?: number): Promise<OperationResult<'publicKey'>> {
    const key = await this.#readableKey(token, ttag);
    const signing = signingOf(key);
    const { version, material } = versionOf(key, asked ?? newestVersion(key));
    const parsed = this.#parsed(key, signing, version, material);
    const pem = parsed.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const view = { ttag: key.ttag, type: signing.type, alg: signing.alg, version, kid: parsed.jwk.kid, pem, jwk: parsed.jwk };
    return { ...view, ...resolvedOf(ttag, key) };
  }

  /** The key's JWKS: every version not retired, newest first (docs/spec.md §4.25 item 6). */
  async jwks(token: string, ttag: string): Promise<OperationResult<'keyJwks'>> {
    const key = await this.#readableKey(token, ttag);
    const signing = signingOf(key);
    const keys = keyJwks({ ...key, signing }, (version, material) => this.#parsed(key, signing, version, material).jwk);
    return { keys, type: signing.type, alg: signing.alg, ...resolvedOf(ttag, key) };
  }

  /** The versions a verification tries: the one named, or every one not retired, newest first. */
  #candidates(key: KeyRow, signing: SigningKeyRow, item: VerifySignatureRequest): number[] {
    if (item.version !== undefined) return [usableVersion(key, item.version).version];
    const all: number[] = [];
    for (let version = newestVersion(key); version >= 1; version--) all.push(version);
    if (item.kid === undefined) return all.filter((version) => version >= key.minVersion);
    const named = all.find((version) => this.#parsed(key, signing, version, versionOf(key, version).material).jwk.kid === item.kid);
    if (named === undefined) throw new KidNotFoundError();
    return [usableVersion(key, named).version];
  }

  #parsed(key: KeyRow, signing: SigningKeyRow, version: number, material: Buffer): ParsedVersion {
    return this.#cache.parsed(key.ttag, version, signing, material);
  }

  async #used<R extends object>(reference: string, done: SigningDone<R>, use: KeyUse): Promise<R & Resolved> {
    await noteKeyUse(this.#ctx, done.key, use);
    return { ...done.result, ...resolvedOf(reference, done.key) };
  }

  async #caller(token: string, operation: Operation): Promise<TokenContext> {
    const caller = await this.#ctx.auth.authenticate(token);
    await this.#ctx.auth.requireOperation(caller, operation);
    return caller;
  }

  /** The key's ACL right and the token's scope, then its state (docs/spec.md §4.6). */
  async #usableKey(caller: TokenContext, ttag: string, right: Right): Promise<KeyRow> {
    const key = await this.#ctx.auth.authorizeKey(caller, ttag, right);
    requireUsableKey(key, this.#ctx.now());
    return key;
  }

  /** A key whose public half the caller may read: `keys.public-key`, the right `read`, not destroyed. */
  async #readableKey(token: string, ttag: string): Promise<KeyRow> {
    const key = await this.#ctx.auth.authorizeKey(await this.#caller(token, 'keys.public-key'), ttag, 'read');
    requireNotDeleted(key);
    return key;
  }
}
