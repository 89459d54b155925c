import type { Caller } from '../../use-cases/session-context.js';

/** The request-scoped namespace, typed once (`ctx.state`). */
export interface GatewayState {
  requestId: string;
  /** The exact request body bytes as received (empty when there was none). */
  rawBody?: Buffer;
  caller?: Caller;
}
