import type { Caller } from '../../use-cases/session-context.js';

/** The request-scoped namespace, typed once (`ctx.state`). */
export interface GatewayState {
  requestId: string;
  /** The URL a proof's `htu` must name: the public origin (or scheme and Host) and the path. */
  htu: string;
  /** The exact request body bytes as received (empty when there was none). */
  rawBody?: Buffer;
  caller?: Caller;
  /** The exact session credential string presented (a bound session's proof hashes it: `ath`). */
  credential?: string | undefined;
  /** The methods a known path allows, for a 405's `Allow` header. */
  allow?: string;
}
