import { createHmac, timingSafeEqual } from 'node:crypto';
import { SRP_GROUP_2048 } from '../../crypto/srp/srp-group.js';
import { modPow, privateValue, toBigInt, toBytes } from '../../crypto/srp/srp-math.js';
import type { Identity } from '../../wire/identity.js';
import { KeyServerError, WRONG_PASSWORD_DETAIL, WrongCredentialError } from '../model/key-server-errors.js';
import { type SrpServerEphemeral, srpServerStart, srpServerVerify } from '../model/srp-server.js';
import type { EngineContext } from './engine-context.js';
import { issueToken } from './engine-tokens.js';
import { identityOf } from './engine-views.js';

interface PendingLogin {
  readonly user: string;
  readonly salt: Buffer;
  readonly verifier: Buffer;
  readonly ephemeral: SrpServerEphemeral;
  readonly A: bigint;
  readonly expiresAt: number;
  /** False for a decoy (unknown user, group): the proof can never match. */
  readonly real: boolean;
}

/** SRP-6a password login (RFC 5054 group, docs/spec.md §4.4): two steps, single use. */
export class LoginOperations {
  readonly #ctx: EngineContext;
  readonly #pending = new Map<string, PendingLogin>();
  /** Kept by the store, made there once (`prepare`); read once, then held. */
  #decoySecret: Buffer | undefined;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * SRP-6a server step 1. An unknown user, a group or a principal without a password gets a decoy
   * salt and B derived from a secret, so the answer does not tell whether the user exists.
   */
  async begin(user: string, A: Buffer): Promise<{ handle: string; salt: Buffer; B: Buffer }> {
    const ctx = this.#ctx;
    this.#sweepPending();
    if (this.#pending.size >= (await ctx.parameters.value('maxPendingLogins')))
      throw new KeyServerError('KEY_SERVER_FAILED', 'too many logins in progress');
    const Abig = toBigInt(A);
    if (A.length === 0 || Abig % SRP_GROUP_2048.N === 0n || Abig >= SRP_GROUP_2048.N) {
      throw new WrongCredentialError('illegal SRP value A');
    }
    const row = await ctx.store.principalByName(user);
    const real = row?.srp !== undefined && row.kind !== 'group';
    // The decoy is derived for every name, a known one too, so the two paths cost the same.
    const decoy = await this.#decoy(user);
    const { salt, verifier } = real ? row.srp! : decoy;
    const ephemeral = srpServerStart(verifier, ctx.random);
    const handle = Buffer.from(ctx.random.bytes(16)).toString('base64url');
    const expiresAt = ctx.now() + (await ctx.parameters.value('loginHandshakeSeconds')) * 1000;
    this.#pending.set(handle, { user, salt, verifier, ephemeral, A: Abig, expiresAt, real });
    return { handle, salt, B: toBytes(ephemeral.B, SRP_GROUP_2048.byteLength) };
  }

  /** SRP-6a server step 2: checks the client proof; on success issues a token. Single use. */
  async finish(handle: string, M1: Buffer): Promise<{ M2: Buffer; token: string; identity: Identity; expiresAt: number | undefined }> {
    const ctx = this.#ctx;
    const pending = this.#pending.get(handle);
    this.#pending.delete(handle);
    if (!pending || pending.expiresAt <= ctx.now()) throw new WrongCredentialError('empty data: no login in progress');
    const { M2 } = srpServerVerify({
      user: pending.user,
      salt: pending.salt,
      verifier: pending.verifier,
      A: pending.A,
      M1,
      ephemeral: pending.ephemeral,
    });
    const row = await ctx.store.principalByName(pending.user);
    if (!pending.real || !row) throw new WrongCredentialError(WRONG_PASSWORD_DETAIL);
    if (row.disabled) throw new WrongCredentialError('credential refused: principal is disabled');
    const { token, expiresAt } = await issueToken(ctx, row);
    return { M2, token, identity: identityOf(row), expiresAt };
  }

  /**
   * In-process password check for the embedded key server, where gateway and key server share one
   * process and the password never leaves it: v' = g^x compared with the kept verifier in constant
   * time. One principal lookup and one exponentiation (an SRP exchange between two halves of one
   * process needs six); an unknown name is checked against its decoy, so both paths cost the same.
   */
  async verifyPassword(user: string, password: string): Promise<{ token: string; identity: Identity; expiresAt: number | undefined }> {
    const ctx = this.#ctx;
    const row = await ctx.store.principalByName(user);
    const real = row?.srp !== undefined && row.kind !== 'group';
    const { salt, verifier } = real ? row.srp! : await this.#decoy(user);
    const { N, g, byteLength } = SRP_GROUP_2048;
    const candidate = toBytes(modPow(g, privateValue(salt, user, password), N), byteLength);
    const matches = verifier.length === candidate.length && timingSafeEqual(verifier, candidate);
    if (!matches || !real) throw new WrongCredentialError(WRONG_PASSWORD_DETAIL);
    if (row.disabled) throw new WrongCredentialError('credential refused: principal is disabled');
    const { token, expiresAt } = await issueToken(ctx, row);
    return { token, identity: identityOf(row), expiresAt };
  }

  /**
   * Reads the decoy secret, making it when the store has none, before any login: every key server on
   * one store then derives the same decoys, and a first unknown name costs no more than a later one.
   */
  async prepare(): Promise<void> {
    this.#decoySecret = await this.#loadDecoySecret();
  }

  /** Forgets every login in progress (the engine closes). */
  clear(): void {
    this.#pending.clear();
  }

  /**
   * The decoy salt and verifier of a name, derived from the kept secret (stable across calls and
   * restarts). The verifier is an HMAC expansion reduced mod N, not g^x: it is never sent, only
   * used as `v` in B = k*v + g^b, so both paths cost one exponentiation
   * and the time taken tells nothing of whether the name exists.
   */
  async #decoy(user: string): Promise<{ salt: Buffer; verifier: Buffer }> {
    this.#decoySecret ??= await this.#loadDecoySecret();
    const secret = this.#decoySecret;
    const derive = (label: string) => createHmac('sha256', secret).update(`${label}:${user}`).digest();
    const salt = derive('salt').subarray(0, 16);
    const blocks: Buffer[] = [];
    for (let i = 0; i < 9; i++) blocks.push(derive(`v${i}`));
    const v = toBigInt(Buffer.concat(blocks)) % SRP_GROUP_2048.N;
    return { salt, verifier: toBytes(v, SRP_GROUP_2048.byteLength) };
  }

  #sweepPending(): void {
    const now = this.#ctx.now();
    for (const [handle, pending] of this.#pending) if (pending.expiresAt <= now) this.#pending.delete(handle);
  }

  async #loadDecoySecret(): Promise<Buffer> {
    const kept = await this.#ctx.store.setting('decoySecret');
    if (kept !== undefined) return Buffer.from(kept, 'base64');
    const secret = Buffer.from(this.#ctx.random.bytes(32));
    await this.#ctx.store.putSetting('decoySecret', secret.toString('base64'));
    return secret;
  }
}
