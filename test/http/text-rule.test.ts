import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { asSession, bearer, createKey, pathTtag } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';
import { exportKey, READ_BACK, runHostileTable, UNTHROTTLED } from '../_support/hostile-text.js';

test('sqlite: every hostile string in every string field of both surfaces is refused naming its field or stored exactly, never a 5xx, and the audit log verifies clean', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-text-table-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const gw = await startGateway(t, {
    ...UNTHROTTLED,
    keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin, dataDir: dir, store: 'sqlite' },
    audit: { kind: 'sqlite', file: join(dir, 'audit.db') },
    auditIntegrity: { writer: 'gw-text', dataDir: dir, checkpointEvery: 16 },
  });
  const adminBearer = await gw.login('admin');
  const key = await createKey(asSession(gw, adminBearer));
  let names = 0;
  const { sent, stored, faults } = await runHostileTable(t, gw, {
    adminBearer,
    ttag: key.ttag,
    ttagPath: pathTtag(key.ttag),
    clientPubKey: exportKey(),
    fresh: () => `text-${randomBytes(3).toString('hex')}-${names++}`,
  });
  t.log(`${sent} hostile requests`);
  t.deepEqual(faults, []);
  t.deepEqual(
    [...READ_BACK].filter((field) => !stored.has(field)),
    [],
  );
  const verify = await gw.call('GET', '/api/audit/verify', { headers: bearer(await gw.login('audra')) });
  t.like(verify, { status: 200, body: { ok: true } }, verify.text);
});
