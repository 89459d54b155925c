import { isKeygateError } from '../../domain/errors/index.js';

/** Why one key-server daemon cannot be used, found by the gateway's check at boot. */
export interface DaemonProblem {
  /** The daemon's origin, as configured. */
  readonly url: string;
  /** One line: unreachable, pin mismatch, certificate not trusted, client certificate refused (mutual TLS). */
  readonly cause: string;
}

/** The peer certificate differs from the pin (TE_GATEWAY_KEYSERVER_FINGERPRINT); both fingerprints are public. */
export class PinMismatchError extends Error {
  override name = 'PinMismatchError';

  constructor(
    readonly shown: string,
    readonly pinned: string,
  ) {
    super(`the key server certificate ${shown} does not match the pinned fingerprint ${pinned}`);
  }
}

/**
 * TLS alerts a daemon sends when it refuses the gateway's client certificate during the handshake
 * (RFC 8446 §6.2: `certificate_required`, `unknown_ca`, `bad_certificate`, ...), as Node names them.
 */
const CLIENT_REFUSED_ALERT =
  /ALERT_(CERTIFICATE_REQUIRED|UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|CERTIFICATE_EXPIRED|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED)/;

/** How a connection dropped by its peer reads: a pinning daemon closes it, once validated, on an untrusted client. */
const DROPPED = new Set(['ECONNRESET', 'EPIPE']);

/** OpenSSL's verdicts on a daemon certificate that does not chain to TE_GATEWAY_KEYSERVER_CA. */
const SERVER_UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** True for an error that says the daemon refused the client certificate during the handshake (mutual TLS). */
export function isClientCertificateRefusal(error: unknown): boolean {
  return CLIENT_REFUSED_ALERT.test(rootOf(error).code ?? '');
}

/** The sentence an operator acts on when a daemon refuses this gateway's certificate. */
export function clientRefusedCause(clientFingerprint: string | undefined): string {
  const which = clientFingerprint === undefined ? '' : ` ${clientFingerprint}`;
  return `client certificate refused (mutual TLS): the daemon does not trust this gateway's certificate${which}; add it to the daemon's --client-fingerprint or --client-ca`;
}

/**
 * Names why a daemon check failed: in the handshake (`handshake`) or in the health call on a connection
 * the gateway had validated (`call`), where a dropped connection is the daemon refusing the client.
 */
export function daemonProblemCause(error: unknown, phase: 'handshake' | 'call', clientFingerprint: string | undefined): string {
  const root = rootOf(error);
  if (root.error instanceof PinMismatchError) {
    return `pin mismatch: its certificate is ${root.error.shown}, TE_GATEWAY_KEYSERVER_FINGERPRINT pins ${root.error.pinned}`;
  }
  const code = root.code ?? '';
  if (SERVER_UNTRUSTED.has(code)) return `certificate not trusted: it does not validate against TE_GATEWAY_KEYSERVER_CA (${code})`;
  const dropped = DROPPED.has(code) || (code === '' && root.gatewayCode === 'KEY_SERVER_UNAVAILABLE');
  if (CLIENT_REFUSED_ALERT.test(code) || (phase === 'call' && dropped)) return clientRefusedCause(clientFingerprint);
  if (phase === 'call') return `answered its health check with an error (${code || root.message})`;
  return `unreachable (${code || root.message})`;
}

/**
 * The innermost cause of `error`, the first system or TLS error code met on the way down, and the
 * gateway's own code (KEY_SERVER_UNAVAILABLE: not reached; another: the daemon answered).
 */
function rootOf(error: unknown): { error: unknown; code: string | undefined; gatewayCode: string | undefined; message: string } {
  let current = error;
  let code: string | undefined;
  const gatewayCode = isKeygateError(error) ? error.code : undefined;
  for (let depth = 0; depth < 8; depth++) {
    const errno = (current as NodeJS.ErrnoException | undefined)?.code;
    if (typeof errno === 'string' && !isKeygateError(current)) code ??= errno;
    const cause = (current as { cause?: unknown } | undefined)?.cause;
    if (cause === undefined || cause === current) break;
    current = cause;
  }
  return { error: current, code, gatewayCode, message: current instanceof Error ? current.message : String(current) };
}
