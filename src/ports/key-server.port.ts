import type { Secret } from '../domain/secret/secret.js';
import type { Right } from '../wire/acl.js';
import type { Identity } from '../wire/identity.js';
import type { OperationArgs, OperationName, OperationResult } from '../wire/keyserver-operations.js';
import type { WorkloadKeySource, WorkloadSignIn } from '../wire/workload-issuer.js';
import { token } from './token.js';

export type { WorkloadKeySource, WorkloadSignIn };

/** What a password login yields: the key-server token (kept on the gateway only) and who signed in. */
export interface KeyServerLogin {
  readonly token: Secret;
  readonly identity: Identity;
  /** When the token stops being valid (ms since the epoch); undefined when it never expires. */
  readonly expiresAt: number | undefined;
}

/** A certificate or delegated login: the principal's registered sender key thumbprint, if any. */
export interface KeyServerCertificateLogin extends KeyServerLogin {
  readonly jkt: string | undefined;
}

/** A workload sign-in the key server accepted: its token, and what the gateway needs of the verified claims. */
export interface KeyServerWorkloadLogin extends KeyServerLogin {
  readonly issuer: string;
  readonly subject: string;
  readonly jti: string | undefined;
  readonly requireJti: boolean;
  /** ms since the epoch: the token's `exp` plus the issuer's leeway, how long its `jti` must be remembered. */
  readonly usableUntil: number;
  /** Where the issuer publishes its keys now; undefined when the key server keeps them. */
  readonly jwksUri: string | undefined;
}

/** A token narrowed to keys and rights (a scoped session's key-server side). */
export interface ScopedToken extends KeyServerLogin {
  /** ttag -> the rights the token has on it. */
  readonly scope: Readonly<Record<string, readonly Right[]>>;
}

/** A token acting as another principal, minted by a service. */
export interface DelegatedToken extends KeyServerLogin {
  readonly actingFor: string;
}

/** One key-server daemon as `/health` lists it. */
export interface KeyServerDaemon {
  /** Its `https://host:port` origin. */
  readonly url: string;
  /** SHA-256 of its certificate (the pin, or what a CA-validated handshake showed); undefined until known. */
  readonly fingerprint: string | undefined;
  /** Whether the last attempt to reach it succeeded. */
  readonly ok: boolean;
}

/** One entry of a key's access list, as read back from the key server. */
export type AclEntry = OperationResult<'readAcl'>['entries'][number];

/**
 * A key's access list as read back from the key server, with its revision: one more for every grant or
 * revoke the key server applied to this key. Internal to the gateway (the /api ACL view does not show it).
 */
export type KeyAcl = OperationResult<'readAcl'>;

/** What a grant or revoke the key server applied answers: the ACL revision it produced. */
export type AclWrite = OperationResult<'revoke'>;

/**
 * The few operations whose result the gateway holds in its own terms rather than the protocol's: a
 * minted token kept as a Secret with `null` (never expires) as undefined, and a creation's `replayed`
 * always said. OperationConnection (src/adapters/key-server/operation-connection.ts) translates them,
 * in one place for both deployments; every other operation answers its protocol result as it is.
 */
export interface PortResults {
  readonly generateKey: { readonly ttag: string; readonly replayed: boolean };
  readonly mintScoped: ScopedToken;
  readonly mintDelegated: DelegatedToken;
}

/** The one argument held in the gateway's terms: an own password change's proof token stays a Secret. */
export interface PortArgs {
  readonly setPassword: Omit<OperationArgs<'setPassword'>, 'currentProof'> & { readonly currentProof?: Secret | undefined };
}

/** What `call(name, ...)` takes: the protocol's arguments (src/wire/keyserver-operations.ts), or the port's terms where they differ. */
export type CallArgs<N extends OperationName> = N extends keyof PortArgs ? PortArgs[N] : OperationArgs<N>;
/** What `call(name, ...)` answers: the protocol's result, or the port's terms where they differ. */
export type CallResult<N extends OperationName> = N extends keyof PortResults ? PortResults[N] : OperationResult<N>;

/**
 * One authenticated connection to the key server, opened for one gateway request and closed after it.
 * Every key-server operation goes through its one `call`: the operation's name, arguments and result
 * are declared once, in the protocol's table (src/wire/keyserver-operations.ts, documented in
 * docs/keyserver-protocol.md "Operations"); what each one needs and answers is the engine's
 * (src/keyserver/engine).
 *
 * Errors (domain errors, by code): `SESSION_EXPIRED` when the token expired or is invalid;
 * `ROLE_DENIED` / `ACL_DENIED` / `OUT_OF_SCOPE` for authorization; `NOT_FOUND` for an unknown key or
 * principal; `KEY_EXPIRED` for export or cryptography with an expired key; `KEY_VERSION_RETIRED` for
 * export, decrypt or MAC verify by a version below the key's minVersion; `KEY_VERSION_NOT_FOUND` for a
 * version the key does not have; `IDEMPOTENCY_KEY_REUSED` for an Idempotency-Key used with another request;
 * `BAD_REQUEST` for a value the key server refuses; `KEY_SERVER_UNAVAILABLE` when it cannot be
 * reached; `KEY_SERVER_FAILED` for any other failure, and for a call on a closed connection.
 * Byte arrays in a result (an exported key, a plaintext) are the caller's to zero once used.
 */
export interface KeyServerConnection {
  /** Runs one operation with the connection's token. */
  call<N extends OperationName>(name: N, args: CallArgs<N>): Promise<CallResult<N>>;
  /** Ends the connection. Idempotent. */
  close(): Promise<void>;
}

/**
 * The key server as the gateway needs it (architecture.md "The key server"). Adapters: embedded (the
 * engine in-process) and tls (a daemon over TLS 1.3); both pass `test/ports/key-server.contract.ts`.
 */
export interface KeyServer {
  /**
   * Password login against the principal's SRP-6a verifier: with a daemon by an SRP-6a exchange
   * (the password never leaves the gateway), embedded by checking the verifier in process. Throws `WRONG_CREDENTIAL` for a
   * refused credential and `KEY_SERVER_UNAVAILABLE` / `KEY_SERVER_FAILED` for anything else.
   */
  login(user: string, password: Secret): Promise<KeyServerLogin>;
  /** First leg of a certificate login: a single-use challenge for the certificate's key to sign. */
  certificateChallenge(certificatePem: string): Promise<{ challengeId: string; challenge: string; expiresAt: number }>;
  /** Second leg: the signature over the challenge; WRONG_CREDENTIAL when refused. */
  certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin>;
  /**
   * A workload sign-in: the key server verifies the token over the issuer it keeps, with the key set
   * the gateway fetched from `jwksUri`; WRONG_CREDENTIAL (naming what failed) when refused. When the
   * issuer publishes its keys and the request brought no set from the URI it has now, the answer is
   * that URI (`keySource`) and nothing was verified: fetch that set and sign in again.
   */
  workloadLogin(request: WorkloadSignIn): Promise<KeyServerWorkloadLogin | WorkloadKeySource>;
  /** Opens a fresh validated connection authenticated with the token. */
  connect(token: Secret): Promise<KeyServerConnection>;
  /**
   * Opens a fresh validated connection of the gateway's own, with no user's token: it runs only the
   * gateway calls (`claimKeyDestructions`, `confirmKeyDestruction`; docs/keyserver-protocol.md
   * "Gateway calls"), which a daemon serves to a peer with a trusted client certificate, as its health
   * call. Any other operation on it is refused: SESSION_EXPIRED in process, KEY_SERVER_FAILED from a
   * daemon (which answers SESSION_REQUIRED, no code of this port's).
   */
  connectAsGateway(): Promise<KeyServerConnection>;
  /** Lower-case hex SHA-256 of the key server's identity certificate (DER), no separators. */
  fingerprint(): string;
  /**
   * Each daemon a gateway reaches over TLS, and whether it serves (empty for the embedded key server).
   * Holds no secret: a URL and a certificate fingerprint are public.
   */
  daemons(): readonly KeyServerDaemon[];
  /**
   * Resolves when the key server answers (with several daemons: when at least one does); throws
   * `KEY_SERVER_UNAVAILABLE` otherwise.
   */
  ping(): Promise<void>;
  /** Releases resources held by the adapter. */
  close(): Promise<void>;
}

/**
 * What an observer of the key server hears of one call that ended: the `KeyServer` member
 * (`login`, `certificateChallenge`, `certificateLogin`, `connect`, `ping`) or, on a connection, the
 * operation's protocol name; the error when it failed; and how long it took. Observers (metering,
 * health) are plugged into the one observing decorator the app wraps around the key server.
 */
export interface KeyServerCallEnded {
  readonly member: string;
  readonly failed: boolean;
  readonly error: unknown;
  readonly seconds: number;
}

export type KeyServerObserver = (ended: KeyServerCallEnded) => void;

export const KEY_SERVER = token<KeyServer>('KeyServer');
