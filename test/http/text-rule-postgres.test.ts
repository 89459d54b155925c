import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { asSession, bearer, createKey, pathTtag } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';
import { exportKey, READ_BACK, runHostileTable, UNTHROTTLED } from '../_support/hostile-text.js';
import { startTestPostgres } from '../_support/postgres.js';
import { createDatabase } from '../_support/postgres-daemons.js';
import { testUnless } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const check = testUnless(postgres.reason).serial;
let schemas = 0;

/** A gateway whose audit log and embedded key store are both in PostgreSQL (a fresh schema and database). */
async function postgresGateway(t: ExecutionContext) {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-text-pg-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const audit = {
    kind: 'postgres' as const,
    url: postgres.url!,
    schema: `text_${process.pid}_${schemas++}`,
    connectTimeoutMs: 30_000,
    statementTimeoutMs: 30_000,
  };
  const keyServer = {
    kind: 'embedded' as const,
    seed: SEED,
    adminPassword: PASSWORDS.admin,
    dataDir: dir,
    store: 'postgres' as const,
    postgresUrl: await createDatabase(postgres.url!),
    masterKey: randomBytes(32).toString('base64'),
  };
  return startGateway(t, { ...UNTHROTTLED, audit, keyServer, auditIntegrity: { writer: 'gw-text', dataDir: dir, checkpointEvery: 16 } });
}

check('postgres: a login whose user holds a NUL is 400 naming user, and the key creations beside it are all answered 201', async (t) => {
  const gw = await postgresGateway(t);
  const admin = asSession(gw, await gw.login('admin'));
  const nul = gw.call('POST', '/login', { body: { user: 'bob\u0000', password: PASSWORDS.bob } });
  const creations = Array.from({ length: 10 }, () => admin.post('/api/keys', {}));
  const [login, ...created] = await Promise.all([nul, ...creations]);
  t.is(login!.status, 400, login!.text);
  t.regex(login!.body.error, /^user: /);
  // The NUL never reached the audit: no group commit it shared was refused.
  t.deepEqual(
    created.map((reply) => reply.status),
    created.map(() => 201),
  );
});

check('postgres key store: a NUL in a key label or a display name is 400 naming the field, never 502', async (t) => {
  const gw = await postgresGateway(t);
  const admin = asSession(gw, await gw.login('admin'));
  const label = await admin.post('/api/keys', { label: 'a\u0000b' });
  t.like(label, { status: 400, body: { code: 'BAD_REQUEST' } }, label.text);
  t.regex(label.body.detail, /^label: /);
  const created = await admin.post('/api/principals', { name: 'dora', kind: 'user', displayName: 'Dora\u0000' });
  t.like(created, { status: 400, body: { code: 'BAD_REQUEST' } }, created.text);
  t.regex(created.body.detail, /^displayName: /);
  const renamed = await admin.put('/api/principals/alice', { displayName: 'Alice\u0000' });
  t.like(renamed, { status: 400, body: { code: 'BAD_REQUEST' } }, renamed.text);
  t.regex(renamed.body.detail, /^displayName: /);
});

check(
  'postgres (audit and key store): every hostile string in every string field of both surfaces is refused naming its field or stored exactly, never a 5xx, and the audit log verifies clean',
  async (t) => {
    const gw = await postgresGateway(t);
    const adminBearer = await gw.login('admin');
    const key = await createKey(asSession(gw, adminBearer));
    let names = 0;
    const { sent, stored, faults } = await runHostileTable(t, gw, {
      adminBearer,
      ttag: key.ttag,
      ttagPath: pathTtag(key.ttag),
      clientPubKey: exportKey(),
      fresh: () => `text-pg-${names++}`,
    });
    t.log(`${sent} hostile requests`);
    t.deepEqual(faults, []);
    t.deepEqual(
      [...READ_BACK].filter((field) => !stored.has(field)),
      [],
    );
    const verify = await gw.call('GET', '/api/audit/verify', { headers: bearer(await gw.login('audra')) });
    t.like(verify, { status: 200, body: { ok: true } }, verify.text);
  },
);
