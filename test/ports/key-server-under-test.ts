import type { KeyServer } from '../../src/ports/key-server.port.js';

/**
 * A key server under test, seeded with CONTRACT_SEED. `expireTokens`
 * makes every token issued so far invalid by letting the server's time pass its token lifetime.
 */
export interface KeyServerUnderTest {
  readonly keyServer: KeyServer;
  expireTokens(): Promise<void>;
  close(): Promise<void>;
}

/** What a test asks of the server it makes. */
export interface KeyServerOptions {
  /**
   * The test lets its tokens expire (`expireTokens`): a server whose time cannot be moved by hand (a
   * separate process) gives it tokens of a short lifetime, so that expiring them is a short wait.
   */
  readonly expiring?: boolean;
}

export type KeyServerFactory = (options?: KeyServerOptions) => Promise<KeyServerUnderTest>;
