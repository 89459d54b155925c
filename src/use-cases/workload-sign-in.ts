import { decodeJwt, decodeProtectedHeader } from 'jose';
import { ProofReplayCacheFullError, ProofReplayedError } from '../domain/proof/proof.errors.js';
import type { VerifiedProof } from '../domain/proof/proof.js';
import { WrongCredentialError } from '../domain/session/session.errors.js';
import type { KeyServer, KeyServerWorkloadLogin, WorkloadKeySource, WorkloadSignIn } from '../ports/key-server.port.js';
import type { KeySetSource } from '../ports/key-set-source.port.js';
import type { ReplayCache } from '../ports/replay-cache.port.js';
import type { LoginThrottle } from './login-throttle.js';
import type { KnownKeySource, WorkloadKeySources } from './workload-key-sources.js';

/** What the token says of itself before anything is verified: only to count and to find keys, never trusted. */
export interface UnverifiedToken {
  readonly iss: string | undefined;
  readonly sub: string | undefined;
  readonly kid: string | undefined;
}

const TEXT_MAX = 512;

/** A claim kept only when it is short plain text: it becomes a throttle key and an audit object. */
function plain(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= TEXT_MAX && !/[\p{Cc}\p{Cs}]/u.test(value) ? value : undefined;
}

export function peekToken(token: string): UnverifiedToken {
  try {
    const claims = decodeJwt(token);
    const header = decodeProtectedHeader(token);
    return { iss: plain(claims.iss), sub: plain(claims.sub), kid: plain(header.kid) };
  } catch {
    throw new WrongCredentialError('token: not a compact JWS');
  }
}

export interface WorkloadSignInDeps {
  readonly keyServer: KeyServer;
  readonly keySets: KeySetSource;
  readonly throttle: LoginThrottle;
  readonly keySources: WorkloadKeySources;
}

/**
 * A workload's sign-in with its platform's token (docs/spec.md §4.24 items 2-5): the key server
 * verifies the token under the throttle of `<iss> <sub>` and the address, with the key set the gateway
 * fetched (never counted as the workload's failure) from where the key server last said the issuer
 * publishes it; and the gateway records its `jti` once when the issuer asks. A sign-in of an issuer
 * the gateway knows is one call to the key server; a first one, or one after the issuer moved its
 * keys, two (the first answers where to fetch them).
 */
export async function signInWorkload(
  deps: WorkloadSignInDeps,
  request: { issuer?: string | undefined; token: string },
  clientAddress: string,
  proofJkt?: string,
): Promise<KeyServerWorkloadLogin> {
  const { throttle, keySources } = deps;
  await throttle.countRequest(clientAddress);
  await throttle.assertAllowed(undefined, clientAddress);
  const peeked = peekToken(request.token);
  const iss = peeked.iss;
  const signIn = { issuer: request.issuer, token: request.token, proofJkt };
  try {
    const login = await loginWithKeySet(
      deps,
      signIn,
      peeked,
      clientAddress,
      iss === undefined ? undefined : keySources.get(request.issuer, iss),
    );
    if (iss !== undefined && login.jwksUri !== undefined)
      keySources.remember(request.issuer, iss, { issuer: login.issuer, jwksUri: login.jwksUri });
    else if (iss !== undefined) keySources.forget(request.issuer, iss);
    return login;
  } catch (error) {
    if (iss !== undefined) keySources.forget(request.issuer, iss);
    throw error;
  }
}

type SignInRequest = Omit<WorkloadSignIn, 'jwks' | 'jwksUri'>;

/**
 * At most two calls: the first with the set of the issuer as the gateway knows it (a set that cannot
 * be had is left out: the key server then says where it is now), the second with the set the key
 * server named, when the first named one.
 */
async function loginWithKeySet(
  deps: WorkloadSignInDeps,
  request: SignInRequest,
  peeked: UnverifiedToken,
  clientAddress: string,
  known: KnownKeySource | undefined,
): Promise<KeyServerWorkloadLogin> {
  const knownSet =
    known === undefined ? undefined : await deps.keySets.keySet(known.issuer, known.jwksUri, peeked.kid).catch(() => undefined);
  const withKnown = knownSet === undefined ? request : { ...request, jwksUri: known!.jwksUri, jwks: knownSet };
  const first = await guardedLogin(deps, withKnown, peeked, clientAddress);
  if (!('keySource' in first)) return first;
  const { issuer, jwksUri } = first.keySource;
  const jwks = await deps.keySets.keySet(issuer, jwksUri, peeked.kid);
  const second = await guardedLogin(deps, { ...request, jwksUri, jwks }, peeked, clientAddress);
  if ('keySource' in second) throw new WrongCredentialError('jwks: the issuer key set moved during the sign-in');
  return second;
}

/** An answer of where the keys are is no verdict on the token: thrown through the throttle's guard, it neither counts nor forgives. */
class KeySourceAnswer extends Error {
  constructor(readonly answer: WorkloadKeySource) {
    super('the key server named where the issuer keys are');
  }
}

/**
 * One call under the throttle: of `<iss> <sub>` and the address when both are readable (a refusal
 * counts on all three, docs/spec.md §4.24 item 5), else a refusal counts against the address.
 */
async function guardedLogin(
  deps: WorkloadSignInDeps,
  request: WorkloadSignIn,
  peeked: UnverifiedToken,
  clientAddress: string,
): Promise<KeyServerWorkloadLogin | WorkloadKeySource> {
  const { throttle, keyServer } = deps;
  if (peeked.iss === undefined || peeked.sub === undefined)
    return await keyServer.workloadLogin(request).catch(async (error: unknown) => {
      if ((error as { code?: string }).code === 'WRONG_CREDENTIAL') await throttle.recordFailedPassword(undefined, clientAddress);
      throw error;
    });
  try {
    return await throttle.guardPassword(`jwt ${peeked.iss} ${peeked.sub}`, clientAddress, async () => {
      const answer = await keyServer.workloadLogin(request);
      if ('keySource' in answer) throw new KeySourceAnswer(answer);
      return answer;
    });
  } catch (error) {
    if (error instanceof KeySourceAnswer) return error.answer;
    throw error;
  }
}

/** `jti` once (docs/spec.md §4.24 item 2): §5.4's replay cache, keyed by the issuer, until `exp` plus leeway. */
export async function rememberJti(cache: ReplayCache, login: KeyServerWorkloadLogin): Promise<void> {
  const verdict = await cache.remember(`jwt:${login.issuer}`, login.jti!, login.usableUntil, login.identity.principalId);
  if (verdict === 'replayed') throw new WrongCredentialError('jti: the token was used already');
  if (verdict !== 'fresh') throw new ProofReplayCacheFullError(undefined, verdict === 'full' ? 'process' : 'session');
}

/** The sign-in proof's `jti`, once per key (docs/spec.md §5.4), counted against the principal signed in. */
export async function rememberProof(cache: ReplayCache, proof: VerifiedProof, principalId: string): Promise<void> {
  const verdict = await cache.remember(proof.jkt, proof.jti, proof.expiresAt, principalId);
  if (verdict === 'replayed') throw new ProofReplayedError();
  if (verdict !== 'fresh') throw new ProofReplayCacheFullError(undefined, verdict === 'full' ? 'process' : 'session');
}
