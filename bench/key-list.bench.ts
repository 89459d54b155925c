import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayConfigInput } from '../src/app/config/config.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { loadMasterKeys } from '../src/keyserver/at-rest/master-key-source.js';
import type { KeyRow } from '../src/keyserver/engine/engine-model.js';
import type { EngineStore } from '../src/keyserver/engine/engine-store.port.js';
import { PostgresEngineStore } from '../src/keyserver/store/postgres-engine-store.js';
import { SqliteEngineStore } from '../src/keyserver/store/sqlite-engine-store.js';
import { startTestPostgres } from '../test/_support/postgres.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import { type Job, type LoadClient, noFailures, ratioTo } from './load-client.js';
import { type Figure, pairedFigure, rps } from './table.js';

/** How many keys the store holds, and how many a page lists (docs/spec.md §4.23 item 1). */
const KEYS = 100_000;
const PAGE = 100;
const SEED_UNIT = 5_000;
/**
 * The goal: a page of 100 key summaries is served at least at this share of the rate of one key view.
 * A page reads 100 keys where the view reads one; a page that cost 100 views would be 0.01x.
 */
const GOAL = 0.1;

interface StoreUnderTest {
  readonly name: 'SQLite' | 'PostgreSQL';
  readonly keyServer: GatewayConfigInput['keyServer'];
  /** The gateway's store, opened a second time: the keys are written through it, not through HTTP. */
  open(): Promise<EngineStore>;
}

/** KEYS keys of the admin, written through the engine store in units of SEED_UNIT, one a millisecond apart. */
async function seed(store: EngineStore, owner: string): Promise<string> {
  const start = Date.now() - KEYS;
  let sample = '';
  for (let first = 0; first < KEYS; first += SEED_UNIT) {
    await store.atomically(async () => {
      for (let n = first; n < Math.min(KEYS, first + SEED_UNIT); n += 1) {
        const row: KeyRow = {
          ttag: randomBytes(24).toString('base64'),
          nid: 419,
          material: randomBytes(16),
          laterVersions: [],
          minVersion: 1,
          owner,
          acl: new Map(),
          aclRevision: 0,
          label: `bench-${n}`,
          createdAt: start + n,
          expired: false,
          disabled: false,
          tags: {},
        };
        await store.putKey(row);
        if (n === KEYS / 2) sample = row.ttag;
      }
    });
  }
  await store.close();
  return sample;
}

/** A gateway over the store, the keys seeded: the page request and the single read, as the admin. */
async function jobsOn(target: StoreUnderTest, gateways: Gateway[]): Promise<{ page: Job; single: Job }> {
  const gateway = await createGateway({ keyServer: target.keyServer, ...DEPLOYED }, { logger: deployedLogger() });
  gateways.push(gateway);
  const { url } = await gateway.listen(0, '127.0.0.1');
  const headers = { authorization: `Bearer ${await signIn(url)}` };
  const made = await fetch(`${url}/api/keys`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
  const owner = ((await made.json()) as { owner: { principalId: string } }).owner.principalId;
  const sample = await seed(await target.open(), owner);
  const path = Buffer.from(sample, 'base64').toString('base64url');
  return { page: { url: `${url}/api/keys?limit=${PAGE}`, headers }, single: { url: `${url}/api/keys/${path}`, headers } };
}

/**
 * `GET /api/keys?limit=100` out of 100,000 keys (the admin's page: every key), beside the same store's
 * `GET /api/keys/{ttag}`, on the embedded key server's SQLite and PostgreSQL stores. The keys are
 * written through a second opening of the store before the load; the rounds alternate single read and
 * page, the median shown.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-list-'));
  const postgres = startTestPostgres({ durable: true });
  const gateways: Gateway[] = [];
  const masterKey = randomBytes(32).toString('base64');
  const keyring = loadMasterKeys({ dataPath: ':memory:', key: masterKey }).keyring;
  const base = { kind: 'embedded' as const, adminPassword: ADMIN_PASSWORD, masterKey };
  const targets: StoreUnderTest[] = [
    {
      name: 'SQLite',
      keyServer: { ...base, dataDir: join(dir, 'sqlite'), store: 'sqlite' as const },
      open: async () => new SqliteEngineStore(join(dir, 'sqlite', 'keyserver.db'), keyring),
    },
  ];
  if (postgres.url === undefined) process.stdout.write(`key list on PostgreSQL: not measured (${postgres.reason})\n`);
  else {
    // The bench's own throwaway cluster: its default database holds nothing else.
    const postgresUrl = postgres.url;
    targets.push({
      name: 'PostgreSQL',
      keyServer: { ...base, dataDir: join(dir, 'pg'), store: 'postgres' as const, postgresUrl },
      open: () => PostgresEngineStore.open({ url: postgresUrl, keyring }),
    });
  }
  try {
    const rows: Figure[] = [];
    for (const target of targets) {
      const jobs = await jobsOn(target, gateways);
      const paired = await load.paired(
        { name: `GET /api/keys/{ttag}, ${target.name}`, job: jobs.single },
        { name: `GET /api/keys, 100 of 100,000, ${target.name}`, job: jobs.page },
        ratioTo,
      );
      noFailures(paired.row, paired.floor);
      rows.push(
        pairedFigure(`GET /api/keys, 100 of 100,000 keys, ${target.name}`, paired, `GET /api/keys/{ttag} on it: ${rps(paired.floor)}`, {
          op: '>=',
          target: GOAL,
          unit: 'x',
        }),
      );
    }
    return rows;
  } finally {
    for (const gateway of gateways) await gateway.close();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
