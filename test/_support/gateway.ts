import type { ExecutionContext } from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import type { GatewayOverrides } from '../../src/app/adapters.js';
import type { GatewayConfigInput } from '../../src/app/config/config.js';
import { createGateway, type Gateway } from '../../src/app/create-gateway.js';
import { type CallOptions, call, type Reply } from './http.js';
import { buildProof, type ProofSigner, type ProofSpec } from './proof-builder.js';

export const PASSWORDS = {
  alice: 'alice-password-1',
  bob: 'bob-password-2',
  carol: 'carol-password-3',
  admin: 'admin-password-0',
  audra: 'audra-password-4',
} as const;

export const SEED = {
  principals: [
    { name: 'alice', kind: 'user' as const, password: PASSWORDS.alice },
    { name: 'bob', kind: 'user' as const, password: PASSWORDS.bob },
    { name: 'carol', kind: 'user' as const, password: PASSWORDS.carol },
    { name: 'audra', kind: 'user' as const, password: PASSWORDS.audra, roles: ['auditor'] },
    { name: 'ops', kind: 'group' as const },
    { name: 'svc', kind: 'service' as const },
  ],
};

/** A gateway served on a real loopback socket, with a manual clock and a logger the test can read. */
export interface TestGateway {
  readonly url: string;
  readonly clock: ManualClock;
  readonly logger: MemoryLogger;
  readonly gateway: Gateway;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Signs in and answers the session id. */
  login(user: keyof typeof PASSWORDS): Promise<string>;
  /** A request of a bound session: the proof is minted for it (method, URL, credential, body). */
  bound(
    signer: ProofSigner,
    method: string,
    path: string,
    credential: { bearer: string } | { xSession: string },
    body?: unknown,
    spec?: ProofSpec,
  ): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * Starts a gateway for one test: its close is registered with `t.teardown` as soon as it exists, so a
 * test that fails early leaves nothing listening. `close()` may still be called (it runs once).
 */
export async function startGateway(
  t: ExecutionContext,
  config: GatewayConfigInput = {},
  overrides: GatewayOverrides = {},
): Promise<TestGateway> {
  const clock = new ManualClock(Date.now());
  const logger = new MemoryLogger();
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin }, ...config },
    { clock, logger, ...overrides },
  );
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= gateway.close());
  t.teardown(close);
  const { url } = await gateway.listen(0, '127.0.0.1');
  const self: TestGateway = {
    url,
    clock,
    logger,
    gateway,
    call: (method, path, options) => call(url, method, path, options),
    async login(user) {
      const reply = await call(url, 'POST', '/login', { body: { user, password: PASSWORDS[user] } });
      if (reply.status !== 200) throw new Error(`login ${user}: ${reply.status} ${reply.text}`);
      return reply.body.sessionId as string;
    },
    bound(signer, method, path, credential, body, spec) {
      const raw = body === undefined ? undefined : JSON.stringify(body);
      const value = 'bearer' in credential ? credential.bearer : credential.xSession;
      const proof = buildProof(
        signer,
        { method, htu: `${url}${path}`, credential: value, body: Buffer.from(raw ?? '') },
        clock.now(),
        spec,
      );
      const headers: Record<string, string> = {
        DPoP: proof,
        ...('bearer' in credential ? { Authorization: `Bearer ${value}` } : { 'X-Session': value }),
        ...(raw === undefined ? {} : { 'content-type': 'application/json' }),
      };
      return call(url, method, path, { headers, ...(raw === undefined ? {} : { raw }) });
    },
    close,
  };
  return self;
}

/** A gateway whose key server is the real embedded one behind a fault injector. */
export async function startFaultyGateway(t: ExecutionContext, config: GatewayConfigInput = {}, overrides: GatewayOverrides = {}) {
  const { startEmbeddedKeyServer } = await import('../../src/app/embedded-engine.js');
  const { FaultyKeyServer } = await import('./faulty-key-server.js');
  const { CryptoRandom } = await import('../../src/adapters/random/crypto-random.js');
  const clock = new ManualClock(Date.now());
  const { keyServer } = await startEmbeddedKeyServer(
    { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin },
    clock,
    new CryptoRandom(),
  );
  const faulty = new FaultyKeyServer(keyServer);
  const gateway = await startGateway(t, config, { ...overrides, keyServer: faulty, clock });
  return Object.assign(gateway, { faults: faulty.faults, keyServerCalls: faulty.calls });
}
