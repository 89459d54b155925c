import type { HealthView, SessionView } from './api-types.js';
import { KeygateSession } from './keygate-session.js';
import type { ProofKey } from './proof-key.js';
import { parseBaseUrl, send, type TransportOptions } from './transport.js';

export type KeygateClientOptions = TransportOptions;

/**
 * The browser's (or any WebCrypto runtime's) client of the gateway's /api surface. It holds no
 * session itself: `login` answers a KeygateSession, and a session mints narrower, bound ones.
 *
 * ```ts
 * const client = new KeygateClient({ baseUrl: 'https://keys.example.com' });
 * const session = await client.login('alice', password);
 * const key = await session.createKey({ keyLen: 32 });
 * const page = await session.mintScoped({ objects: [key.ttag] }); // bound to a new non-extractable key
 * const { key: raw } = await page.exportKey(key.ttag);
 * ```
 */
export class KeygateClient {
  readonly #options: TransportOptions;

  constructor(options: KeygateClientOptions) {
    parseBaseUrl(options.baseUrl); // a bad base URL fails here, not on the first call
    this.#options = options;
  }

  /** POST /api/session: password login; the session is unbound (docs/spec.md §5.1). */
  async login(user: string, password: string): Promise<KeygateSession> {
    const view = await send<SessionView>(this.#options, { method: 'POST', path: '/api/session', body: { user, password } });
    return KeygateSession.fromMinted(this.#options, view, undefined);
  }

  /**
   * POST /api/session/jwt: a workload's sign-in with its platform's token (docs/spec.md §4.24). With a
   * `proofKey` the session is bound to it (and a token carrying `cnf.jkt` must name that key);
   * without one it is unbound. `issuer` names the trusted issuer when the token's `iss` is not enough.
   */
  async loginWithJwt(token: string, options: { issuer?: string; proofKey?: ProofKey } = {}): Promise<KeygateSession> {
    const body = options.issuer === undefined ? { token } : { issuer: options.issuer, token };
    const view = await send<SessionView>(this.#options, { method: 'POST', path: '/api/session/jwt', body, signInProof: options.proofKey });
    return KeygateSession.fromMinted(this.#options, view, options.proofKey);
  }

  /** GET /api/health (no session). A failed check is a 503 KeygateApiError. */
  health(): Promise<HealthView> {
    return send<HealthView>(this.#options, { method: 'GET', path: '/api/health' });
  }

  /**
   * A session minted elsewhere (kept by the page across a reload, say). A bound session needs the
   * ProofKey it was bound to, or every request is refused (PROOF_MISSING / PROOF_KEY_MISMATCH).
   */
  resume(sessionId: string, proofKey?: ProofKey): KeygateSession {
    return new KeygateSession(this.#options, sessionId, proofKey);
  }
}
