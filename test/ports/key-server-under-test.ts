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

export type KeyServerFactory = () => Promise<KeyServerUnderTest>;
