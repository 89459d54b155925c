import { decodeJwt, decodeProtectedHeader } from 'jose';
import { ProofReplayCacheFullError, ProofReplayedError } from '../domain/proof/proof.errors.js';
import type { VerifiedProof } from '../domain/proof/proof.js';
import { WrongCredentialError } from '../domain/session/session.errors.js';
import type { KeyServer, KeyServerWorkloadLogin } from '../ports/key-server.port.js';
import type { KeySetSource } from '../ports/key-set-source.port.js';
import type { ReplayCache } from '../ports/replay-cache.port.js';
import type { LoginThrottle } from './login-throttle.js';

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
}

/**
 * A workload's sign-in with its platform's token (docs/spec.md §4.24 items 2-5): the key server names
 * the issuer and where its keys are published, the gateway fetches them (never counted as the
 * workload's failure), the key server verifies the token under the throttle of `<iss> <sub>` and the
 * address, and the gateway records its `jti` once when the issuer asks.
 */
export async function signInWorkload(
  deps: WorkloadSignInDeps,
  request: { issuer?: string | undefined; token: string },
  clientAddress: string,
  proofJkt?: string,
): Promise<KeyServerWorkloadLogin> {
  const { throttle } = deps;
  await throttle.countRequest(clientAddress);
  await throttle.assertAllowed(undefined, clientAddress);
  const peeked = peekToken(request.token);
  const source = await deps.keyServer.workloadKeySource(request).catch(async (error: unknown) => {
    if (error instanceof Error && (error as { code?: string }).code === 'WRONG_CREDENTIAL')
      await throttle.recordFailedPassword(undefined, clientAddress);
    throw error;
  });
  const jwks = source.jwksUri === undefined ? undefined : await deps.keySets.keySet(source.issuer, source.jwksUri, peeked.kid);
  const signIn = { issuer: source.issuer, token: request.token, jwksUri: source.jwksUri, jwks, proofJkt };
  const login =
    peeked.iss !== undefined && peeked.sub !== undefined
      ? await throttle.guardPassword(`jwt ${peeked.iss} ${peeked.sub}`, clientAddress, () => deps.keyServer.workloadLogin(signIn))
      : await deps.keyServer.workloadLogin(signIn).catch(async (error: unknown) => {
          if ((error as { code?: string }).code === 'WRONG_CREDENTIAL') await throttle.recordFailedPassword(undefined, clientAddress);
          throw error;
        });
  return login;
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
