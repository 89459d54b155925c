import type { ErrorCode } from '../../domain/errors/error-codes.js';
import type { AuditDraft } from '../../use-cases/audit.js';
import type { Caller } from '../../use-cases/session-context.js';

/** The request-scoped namespace, typed once (`ctx.state`). */
export interface GatewayState {
  requestId: string;
  /** The exact request body bytes as received (empty when there was none). */
  rawBody?: Buffer;
  caller?: Caller;
  /** This request's audit record in the making (audit.middleware.ts). */
  audit?: AuditDraft;
  /** The code of the error the response was shaped from, for the audit record. */
  errorCode?: ErrorCode;
}
