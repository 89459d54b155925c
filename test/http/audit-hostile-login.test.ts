import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { bearer } from '../_support/api-client.js';
import { sharedAuditKeys, verifiesCleanThreeWays } from '../_support/audit-three-ways.js';
import { startGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';

/**
 * An unauthenticated login naming a user with a lone surrogate or a NUL is recorded (its name is the
 * record's principal) as every store keeps text, so the log still verifies clean; and it does not take
 * down the key creations committed beside it. Whether the edge refuses such a name first (400) or the
 * login is refused (401), nothing it sends can plant a break.
 */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const HOSTILE_USERS = ['bob\ud800', '\udc00bob', 'bob\u0000', 'bob\u0000\ud800\u0007'];

async function hostileLogins(t: ExecutionContext, audit: Record<string, unknown>, source: readonly string[]): Promise<void> {
  const keys = sharedAuditKeys(t);
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-hostile-login-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const gw = await startGateway(t, {
    audit: audit as never,
    auditIntegrity: { writer: 'gw-a', key: keys.key, signingKey: keys.signingKey, dataDir, checkpointEvery: 3 },
  });
  const admin = bearer(await gw.login('admin'));
  const logins = HOSTILE_USERS.map((user) => gw.call('POST', '/login', { body: { user, password: 'whatever-password' } }));
  const creations = Array.from({ length: 20 }, () => gw.call('POST', '/api/keys', { headers: admin, body: {} }));
  const [refused, created] = [await Promise.all(logins), await Promise.all(creations)];
  for (const reply of refused) t.true(reply.status === 400 || reply.status === 401, `a hostile login is refused, not ${reply.status}`);
  t.deepEqual(
    created.map((reply) => reply.status),
    created.map(() => 201),
    'the key creations committed beside the hostile logins are recorded and answered',
  );
  await verifiesCleanThreeWays(t, source, keys, dataDir, gw, admin);
}

test.serial('sqlite: logins naming users with lone surrogates and NUL leave a log that verifies clean', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-hostile-sqlite-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.db');
  await hostileLogins(t, { kind: 'sqlite', file }, ['--sqlite', file]);
});

(postgres.reason === undefined ? test.serial : test.skip)(
  'postgres: logins naming users with lone surrogates and NUL leave a log that verifies clean, and poison no batch',
  async (t) => {
    const schema = `hostile_${process.pid}`;
    const audit = { kind: 'postgres', url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 };
    await hostileLogins(t, audit, ['--postgres', postgres.url!, '--schema', schema]);
  },
);
