import 'reflect-metadata';
import { Container, type ResolutionContext } from 'inversify';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { PinoLogger } from '../adapters/logger/pino-logger.js';
import { CryptoRandom } from '../adapters/random/crypto-random.js';
import { MemorySessionStore } from '../adapters/session-store/memory-session-store.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { KEY_SERVER, type KeyServer } from '../ports/key-server.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { RANDOM, type Random } from '../ports/random.port.js';
import { SESSION_STORE, type SessionStore } from '../ports/session-store.port.js';
import type { Token } from '../ports/token.js';
import {
  AclUseCases,
  CryptoUseCases,
  GroupUseCases,
  HealthUseCases,
  IdentityAdminUseCases,
  KeyUseCases,
  PrincipalUseCases,
  ProofChecker,
  RoleUseCases,
  SessionUseCases,
} from '../use-cases/index.js';
import { MemoryReplayCache } from '../adapters/replay-cache/memory-replay-cache.js';
import { REPLAY_CACHE, type ReplayCache } from '../ports/replay-cache.port.js';
import type { GatewayConfig } from './config.js';
import { GATEWAY_VERSION } from './version.js';
import {
  ACL_USE_CASES,
  CONFIG,
  CRYPTO_USE_CASES,
  GROUP_USE_CASES,
  HEALTH_USE_CASES,
  IDENTITY_ADMIN_USE_CASES,
  KEY_USE_CASES,
  PRINCIPAL_USE_CASES,
  PROOF_CHECKER,
  ROLE_USE_CASES,
  SESSION_USE_CASES,
} from './tokens.js';

/** Parts an embedding service or a test may supply instead of the defaults. */
export interface GatewayOverrides {
  readonly clock?: Clock;
  readonly random?: Random;
  readonly logger?: Logger;
  readonly sessionStore?: SessionStore;
  readonly replayCache?: ReplayCache;
  readonly keyServer?: KeyServer;
}

/** Typed resolution: the token carries the type, so a wrong binding fails to compile. */
export function resolve<T>(context: ResolutionContext | Container, id: Token<T>): T {
  return context.get<T>(id);
}

function bindValue<T>(container: Container, id: Token<T>, value: T): void {
  container.bind<T>(id).toConstantValue(value);
}

function bindFactory<T>(container: Container, id: Token<T>, factory: (context: ResolutionContext) => T): void {
  container.bind<T>(id).toDynamicValue(factory).inSingletonScope();
}

/**
 * The composition root's container: ports to adapters, use cases over ports. The key server comes in
 * ready-made (it may need asynchronous start-up); everything else is a factory binding.
 */
export function buildContainer(config: GatewayConfig, keyServer: KeyServer, overrides: GatewayOverrides): Container {
  const container = new Container();
  bindValue(container, CONFIG, config);
  bindValue(container, KEY_SERVER, keyServer);
  bindFactory(container, CLOCK, () => overrides.clock ?? new SystemClock());
  bindFactory(container, RANDOM, () => overrides.random ?? new CryptoRandom());
  bindFactory(container, LOGGER, (ctx) => overrides.logger ?? new PinoLogger({ level: resolve(ctx, CONFIG).logLevel }));
  bindFactory(container, SESSION_STORE, (ctx) => overrides.sessionStore ?? new MemorySessionStore(resolve(ctx, CLOCK)));
  bindFactory(
    container,
    REPLAY_CACHE,
    (ctx) => overrides.replayCache ?? new MemoryReplayCache(resolve(ctx, CLOCK), { maxEntries: resolve(ctx, CONFIG).replayCacheSize }),
  );
  bindFactory(container, PROOF_CHECKER, (ctx) => new ProofChecker(resolve(ctx, CLOCK), resolve(ctx, REPLAY_CACHE)));
  bindFactory(
    container,
    SESSION_USE_CASES,
    (ctx) =>
      new SessionUseCases({
        keyServer: resolve(ctx, KEY_SERVER),
        store: resolve(ctx, SESSION_STORE),
        clock: resolve(ctx, CLOCK),
        random: resolve(ctx, RANDOM),
        logger: resolve(ctx, LOGGER),
        sessionTtlMs: resolve(ctx, CONFIG).sessionTtlSeconds * 1000,
      }),
  );
  bindFactory(container, KEY_USE_CASES, (ctx) => new KeyUseCases({ keyServer: resolve(ctx, KEY_SERVER), random: resolve(ctx, RANDOM) }));
  bindFactory(container, ACL_USE_CASES, (ctx) => new AclUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, CRYPTO_USE_CASES, (ctx) => new CryptoUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, PRINCIPAL_USE_CASES, (ctx) => new PrincipalUseCases({ keyServer: resolve(ctx, KEY_SERVER), random: resolve(ctx, RANDOM) }));
  bindFactory(container, GROUP_USE_CASES, (ctx) => new GroupUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, ROLE_USE_CASES, (ctx) => new RoleUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(container, IDENTITY_ADMIN_USE_CASES, (ctx) => new IdentityAdminUseCases({ keyServer: resolve(ctx, KEY_SERVER) }));
  bindFactory(
    container,
    HEALTH_USE_CASES,
    (ctx) => new HealthUseCases({ keyServer: resolve(ctx, KEY_SERVER), store: resolve(ctx, SESSION_STORE), version: GATEWAY_VERSION }),
  );
  return container;
}

/** Every token the container must resolve; the container test walks this list. */
export const ALL_TOKENS = [
  CONFIG,
  KEY_SERVER,
  CLOCK,
  RANDOM,
  LOGGER,
  SESSION_STORE,
  REPLAY_CACHE,
  PROOF_CHECKER,
  SESSION_USE_CASES,
  KEY_USE_CASES,
  ACL_USE_CASES,
  CRYPTO_USE_CASES,
  PRINCIPAL_USE_CASES,
  GROUP_USE_CASES,
  ROLE_USE_CASES,
  HEALTH_USE_CASES,
  IDENTITY_ADMIN_USE_CASES,
] as const;
