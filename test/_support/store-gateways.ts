import type { ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayOverrides } from '../../src/app/adapters.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from './gateway.js';
import { startTestPostgres } from './postgres.js';
import { createDatabase } from './postgres-daemons.js';

/** The embedded key server's three stores, as a test table runs over them. */
export const KEY_SERVER_STORES = ['memory', 'sqlite', 'postgres'] as const;
export type KeyServerStore = (typeof KEY_SERVER_STORES)[number];

let postgres: ReturnType<typeof startTestPostgres> | undefined;

/** Why a store's tests are skipped (PostgreSQL may be missing), or undefined when it can run. */
export function storeSkipReason(store: KeyServerStore): string | undefined {
  if (store !== 'postgres') return undefined;
  postgres ??= startTestPostgres();
  return postgres.reason;
}

/**
 * A gateway whose embedded key server keeps its state in `store`: memory, a SQLite file in a fresh
 * directory, or a fresh PostgreSQL database. Its teardown is registered by `startGateway`; `overrides`
 * as `startGateway` takes them (a faulty audit log).
 */
export async function startStoreGateway(t: ExecutionContext, store: KeyServerStore, overrides: GatewayOverrides = {}): Promise<TestGateway> {
  const base = { kind: 'embedded' as const, seed: SEED, adminPassword: PASSWORDS.admin };
  if (store === 'memory') return startGateway(t, { keyServer: base }, overrides);
  const dataDir = mkdtempSync(join(tmpdir(), `keygate-${store}-`));
  if (store === 'sqlite') return startGateway(t, { keyServer: { ...base, dataDir, store } }, overrides);
  const url = postgres?.url;
  if (url === undefined) throw new Error(`no PostgreSQL: ${postgres?.reason}`);
  const postgresUrl = await createDatabase(url);
  return startGateway(t, { keyServer: { ...base, dataDir, store, postgresUrl, masterKey: randomBytes(32).toString('base64') } }, overrides);
}
