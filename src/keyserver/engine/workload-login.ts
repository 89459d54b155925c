import { decodeJwt, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose';
import type { Identity } from '../../wire/identity.js';
import { MAX_ISSUERS, type WorkloadIssuer, type WorkloadKeySource, type WorkloadSignIn } from '../../wire/workload-issuer.js';
import { WrongCredentialError } from '../model/key-server-errors.js';
import { renderPrincipal, unmetBoundClaim } from '../model/workload-claims.js';
import type { EngineContext } from './engine-context.js';
import { holdsAdmin } from './engine-delegation.js';
import type { PrincipalRow } from './engine-model.js';
import { issueToken } from './engine-tokens.js';
import { identityOf } from './engine-views.js';
import { readIssuers } from './issuer-operations.js';
import { createPrincipal } from './principal-factory.js';
import { type LocalKeySet, LocalKeySets } from './workload-key-sets.js';

/** A token issued for a workload, and what the gateway needs of the verified token. */
export interface WorkloadToken {
  readonly token: string;
  readonly identity: Identity;
  readonly expiresAt: number | undefined;
  /** The issuer's name, the token's `sub` and `jti`, and whether the issuer wants `jti` used once. */
  readonly issuer: string;
  readonly subject: string;
  readonly jti: string | undefined;
  readonly requireJti: boolean;
  /** The token's `exp` plus the issuer's leeway, ms since the epoch: how long a `jti` must be remembered. */
  readonly usableUntil: number;
  /** Where the issuer publishes its keys now (undefined: the key server keeps them), for the gateway's next sign-in. */
  readonly jwksUri: string | undefined;
}

const MAX_JTI = 256;

function refuse(what: string, why: string): never {
  throw new WrongCredentialError(`${what}: ${why}`);
}

/** The token's claims as sent, unverified: only to find its issuer. */
function unverifiedClaims(token: string): JWTPayload {
  try {
    return decodeJwt(token);
  } catch {
    return refuse('token', 'not a compact JWS');
  }
}

/**
 * What a jose refusal names (docs/spec.md §4.24 item 3). Anything jose throws is a refused token;
 * its message stays in the detail, never the token.
 */
function refusalOf(error: unknown): WrongCredentialError {
  // jose reports an `iat` older than maxTokenAge as expired too.
  if (error instanceof errors.JWTExpired)
    return new WrongCredentialError(
      error.claim === 'iat' ? 'maxTokenAge: the token is older than the issuer allows' : 'exp: the token has expired',
    );
  if (error instanceof errors.JWTClaimValidationFailed) {
    const what = error.claim === 'iat' && /too far in the past/.test(error.message) ? 'maxTokenAge' : error.claim;
    return new WrongCredentialError(`${what}: ${error.message}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new WrongCredentialError('alg: not an algorithm the issuer allows');
  if (error instanceof errors.JWKSNoMatchingKey) return new WrongCredentialError('kid: no key of the issuer key set matches');
  if (error instanceof errors.JWSSignatureVerificationFailed) return new WrongCredentialError('signature: does not verify');
  if (error instanceof errors.JWKSInvalid || error instanceof errors.JWKInvalid)
    return new WrongCredentialError('jwks: the issuer key set is not usable');
  return new WrongCredentialError('token: not a token the issuer signed');
}

/**
 * Workload sign-in (docs/spec.md §4.24 item 2): the key server decides it over the issuer it keeps,
 * exactly as it decides a certificate login over the authorities it keeps. The gateway only fetches
 * an issuer's published key set (the key server makes no outbound request) and hands it over.
 */
export class WorkloadLogin {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * Verifies the token, maps its principal (created when the issuer says so) and issues a token, in one
   * unit. An issuer that publishes its keys at a `jwksUri` needs the set a gateway fetched from that
   * very URI: without it the answer is only where to fetch it (`keySource`), and nothing is verified.
   */
  async login(request: WorkloadSignIn): Promise<WorkloadToken | WorkloadKeySource> {
    return await this.#ctx.store.atomically(async () => {
      const issuer = await this.#issuerOf(request.issuer, request.token);
      const keys = keySetOf(issuer, request);
      if (keys === undefined) return { keySource: { issuer: issuer.name, jwksUri: issuer.jwksUri! } };
      const now = this.#ctx.now();
      const claims = await verifyToken(request.token, issuer, keys, now);
      checkConfirmation(claims, request.proofJkt);
      const principal = await this.#principal(issuer, claims);
      const exp = (claims.exp as number) * 1000;
      const { token, expiresAt } = await issueToken(this.#ctx, principal, { notAfter: exp });
      return {
        token,
        identity: identityOf(principal),
        expiresAt,
        issuer: issuer.name,
        subject: typeof claims.sub === 'string' ? claims.sub : '',
        jti: claims.jti,
        requireJti: issuer.requireJti,
        usableUntil: exp + issuer.leeway * 1000,
        jwksUri: issuer.jwksUri,
      };
    });
  }

  async #issuerOf(name: string | undefined, token: string): Promise<WorkloadIssuer> {
    const iss = unverifiedClaims(token).iss;
    const issuers = await readIssuers(this.#ctx);
    const found = name === undefined ? issuers.find((issuer) => issuer.issuer === iss) : issuers.find((issuer) => issuer.name === name);
    if (found === undefined) refuse('iss', name === undefined ? 'no trusted issuer has it' : 'no trusted issuer of that name');
    if (found.issuer !== iss) refuse('iss', 'not the named issuer');
    return found;
  }

  /** The principal the template names: an enabled service not holding admin, or created when the issuer allows it. */
  async #principal(issuer: WorkloadIssuer, claims: JWTPayload): Promise<PrincipalRow> {
    const rendered = renderPrincipal(issuer.principal, claims);
    if ('refusal' in rendered) return refuse('principal', rendered.refusal);
    const store = this.#ctx.store;
    const existing = await store.principalByName(rendered.name);
    if (existing === undefined) {
      if (!issuer.createPrincipals) return refuse('principal', 'no such principal');
      const created = await createPrincipal(this.#ctx, { name: rendered.name, kind: 'service', roles: issuer.roles });
      return (await store.principalById(created.principalId))!;
    }
    if (existing.kind !== 'service') refuse('principal', 'not a service');
    if (existing.disabled) refuse('principal', 'disabled');
    if (await holdsAdmin(store, existing)) refuse('principal', 'holds admin');
    return existing;
  }
}

/**
 * The issuer's own keys, or the set a gateway fetched from the `jwksUri` the issuer has now; undefined
 * when the sign-in brought no set, or one from another URI (a gateway's memory of an older issuer).
 */
function keySetOf(issuer: WorkloadIssuer, request: WorkloadSignIn): JSONWebKeySet | undefined {
  if (issuer.jwks !== undefined) return issuer.jwks as JSONWebKeySet;
  if (request.jwks === null || typeof request.jwks !== 'object' || request.jwksUri !== issuer.jwksUri) return undefined;
  return request.jwks as JSONWebKeySet;
}

/**
 * The imported keys of the sets sign-ins bring, shared by every sign-in of this key server: room for
 * two sets per issuer it may keep (an issuer's set before and after a rotation).
 */
const localKeySets = new LocalKeySets(2 * MAX_ISSUERS);

function localKeySet(keys: JSONWebKeySet): LocalKeySet {
  try {
    return localKeySets.of(keys);
  } catch (error) {
    throw refusalOf(error);
  }
}

/** jose's checks with the issuer's rules, then the claims of ours (docs/spec.md §4.24 item 2). */
async function verifyToken(token: string, issuer: WorkloadIssuer, keys: JSONWebKeySet, now: number): Promise<JWTPayload> {
  const keySet = localKeySet(keys);
  const verified = await jwtVerify(token, keySet, {
    issuer: issuer.issuer,
    audience: issuer.audiences,
    algorithms: issuer.algorithms,
    clockTolerance: issuer.leeway,
    currentDate: new Date(now),
    requiredClaims: ['exp'],
    ...(issuer.maxTokenAge === undefined ? {} : { maxTokenAge: issuer.maxTokenAge }),
  }).catch((error: unknown) => {
    throw refusalOf(error);
  });
  const claims = verified.payload;
  const unmet = unmetBoundClaim(issuer.boundClaims, claims);
  if (unmet !== undefined) refuse(`bound claim ${unmet}`, 'does not match');
  if (claims.jti !== undefined && (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > MAX_JTI))
    refuse('jti', 'not a string of 1..256 characters');
  if (issuer.requireJti && claims.jti === undefined) refuse('jti', 'the issuer requires one');
  return claims;
}

/**
 * RFC 9449 §6.1: a token carrying `cnf.jkt` is usable only with a proof by that key; any other
 * confirmation method is not understood, so refused (docs/spec.md §4.24 item 2).
 */
function checkConfirmation(claims: JWTPayload, proofJkt: string | undefined): void {
  if (claims.cnf === undefined) return;
  const jkt = typeof claims.cnf === 'object' && claims.cnf !== null ? (claims.cnf as { jkt?: unknown }).jkt : undefined;
  if (typeof jkt !== 'string') refuse('cnf.jkt', 'a confirmation other than a key thumbprint');
  if (proofJkt === undefined) refuse('cnf.jkt', 'the token is sender-constrained: send a DPoP proof by its key');
  if (jkt !== proofJkt) refuse('cnf.jkt', 'the DPoP proof key is not the key the token names');
}
