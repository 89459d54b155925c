import type { ErrorCode } from '../../domain/errors/error-codes.js';
import type { Caller } from '../../use-cases/session-context.js';
import type { AuditScope } from './audit/audit-scope.js';

/** The request-scoped namespace, typed once (`ctx.state`). */
export interface GatewayState {
  requestId: string;
  /** TE_GATEWAY_PUBLIC_ORIGIN, which a proof's expected `htu` is built on when set (`expectedHtu`). */
  publicOrigin?: string | undefined;
  /**
   * What every per-address limit counts under (client-address.ts): the client's address (the socket
   * peer, or X-Forwarded-For behind a trusted proxy), an IPv6 one by its prefix (`clientAddressKey`).
   */
  clientKey: string;
  /** The client's address the key is made from, for the access log (`client`). */
  clientAddress?: string;
  /** The trace id of a valid incoming W3C `traceparent`, for the access log. */
  traceId?: string | undefined;
  /** The exact request body bytes as received (empty when there was none). */
  rawBody?: Buffer;
  caller?: Caller;
  /** The exact session credential string presented (a bound session's proof hashes it: `ath`). */
  credential?: string | undefined;
  /** The methods a known path allows, for a 405's `Allow` header. */
  allow?: string;
  /** This request's audit record, from route entry to its finish (audit-scope.ts). */
  audit?: AuditScope;
  /** The operation id of a route that leaves no audit record (health probes), for the access log and metrics. */
  unauditedOperation?: string;
  /** The code of the error the response was shaped from, for the audit record. */
  errorCode?: ErrorCode;
  /** What caused that error (name and message of its cause, never a secret), for the access log. */
  errorCause?: string;
}
