import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { bearer } from '../_support/api-client.js';
import { type SharedAuditKeys, sharedAuditKeys, verifiesCleanThreeWays } from '../_support/audit-three-ways.js';
import { PASSWORDS, startGateway, type TestGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';

/**
 * Two gateways writing one audit store (docs/spec.md §9.3: one chain per writer), each under 16
 * concurrent clients: every group commit holds many entries, and the log must still verify clean.
 */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
if (postgres.reason !== undefined) console.log(`postgres audit load tests skipped: ${postgres.reason}`);

const WRITERS_PER_GATEWAY = 16;
const ROUNDS = 2;
const b64 = (text: string) => Buffer.from(text).toString('base64');

type AuditConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; schema: string; connectTimeoutMs: number; statementTimeoutMs: number };

async function gatewayOn(
  t: ExecutionContext,
  audit: AuditConfig,
  writer: string,
  keys: SharedAuditKeys,
): Promise<{ gw: TestGateway; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), `keygate-load-${writer}-`));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const gw = await startGateway(t, {
    audit,
    auditIntegrity: { writer, key: keys.key, signingKey: keys.signingKey, dataDir, checkpointEvery: 7 },
  });
  return { gw, dataDir };
}

/** One client's mixed operations: logins (good and bad), key creation, encrypt, reads, logout. */
async function client(gw: TestGateway, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const login = await gw.call('POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } });
    statuses.push(login.status);
    const session = bearer(login.body.sessionId as string);
    const created = await gw.call('POST', '/api/keys', { headers: session, body: {} });
    statuses.push(created.status);
    const ttag = created.body.ttag as string;
    const [encrypted, read, refused] = await Promise.all([
      gw.call('POST', '/api/crypto/encrypt', { headers: session, body: { ttag, plaintext: b64(`client ${n} round ${round}`) } }),
      gw.call('GET', '/api/session', { headers: session }),
      gw.call('POST', '/login', { body: { user: `nobody-${n}-${round}`, password: 'not-the-password' } }),
    ]);
    statuses.push(encrypted.status, read.status, refused.status);
    statuses.push((await gw.call('POST', '/logout', { headers: { 'X-Session': login.body.sessionId as string } })).status);
  }
  return statuses;
}

/**
 * `auditOf(writer)` is each gateway's store and `sourceOf(writer)` how the CLI names it: one shared
 * PostgreSQL schema, or a SQLite file each (one process writes a SQLite store at a time).
 */
async function underLoad(
  t: ExecutionContext,
  auditOf: (writer: string) => AuditConfig,
  sourceOf: (writer: string) => readonly string[],
): Promise<void> {
  const keys = sharedAuditKeys(t);
  const gateways = [await gatewayOn(t, auditOf('gw-a'), 'gw-a', keys), await gatewayOn(t, auditOf('gw-b'), 'gw-b', keys)];
  const clients = gateways.flatMap(({ gw }) => Array.from({ length: WRITERS_PER_GATEWAY }, (_, n) => client(gw, n)));
  const statuses = (await Promise.all(clients)).flat();
  t.deepEqual(
    statuses.filter((status) => status >= 500),
    [],
    'no request failed on the audit store',
  );
  let checked = 0;
  const seen = new Set<string>();
  for (const [i, { gw, dataDir }] of gateways.entries()) {
    const source = sourceOf(i === 0 ? 'gw-a' : 'gw-b');
    if (seen.has(source.join(' '))) continue;
    seen.add(source.join(' '));
    checked += await verifiesCleanThreeWays(t, source, keys, dataDir, gw, bearer(await gw.login('admin')));
  }
  t.true(checked >= statuses.length, `every request left its entries (${checked} checked for ${statuses.length} requests)`);
}

test.serial('sqlite: 2 gateways x 16 concurrent clients of mixed operations leave logs that verify clean three ways', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-load-sqlite-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = (writer: string) => join(dir, `${writer}.db`);
  await underLoad(
    t,
    (writer) => ({ kind: 'sqlite', file: file(writer) }),
    (writer) => ['--sqlite', file(writer)],
  );
});

(postgres.reason === undefined ? test.serial : test.skip)(
  'postgres: 2 gateways x 16 concurrent clients of mixed operations leave a log that verifies clean three ways',
  async (t) => {
    const schema = `load_${process.pid}`;
    const audit = { kind: 'postgres' as const, url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 };
    await underLoad(
      t,
      () => audit,
      () => ['--postgres', postgres.url!, '--schema', schema],
    );
  },
);
