import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { bearer } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';

/** A gateway recording into a SQLite audit file, its chain keys in a fresh data directory. */
async function sqliteAudited(t: import('ava').ExecutionContext) {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-text-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return startGateway(t, {
    audit: { kind: 'sqlite', file: join(dir, 'audit.db') },
    auditIntegrity: { writer: 'gw-text', dataDir: dir, checkpointEvery: 4 },
  });
}

test('a root login whose user holds a lone surrogate is 400 naming user, and the audit log still verifies clean', async (t) => {
  const gw = await sqliteAudited(t);
  // The escape itself travels, as a hostile client would send it: JSON.parse on the server makes the lone surrogate.
  const reply = await gw.call('POST', '/login', {
    raw: '{"user":"bob\\ud800","password":"bob-password-2"}',
    headers: { 'content-type': 'application/json' },
  });
  t.is(reply.status, 400, reply.text);
  t.regex(reply.body.error, /^user: /);
  const verify = await gw.call('GET', '/api/audit/verify', { headers: bearer(await gw.login('audra')) });
  t.like(verify, { status: 200, body: { ok: true } });
});
