import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createKey, signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';

test('an audit database unlinked under a gateway taking key writes refuses every key write after it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-vanished-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.db');
  const gw = await startGateway(t, { audit: { kind: 'sqlite', file }, auditIntegrity: { writer: 'gw-a', dataDir: dir } });
  const alice = await signIn(gw, 'alice');
  await createKey(alice);
  // Writes in flight while the file goes: every one answered after the unlink must be refused.
  const burst = Array.from({ length: 20 }, () => alice.post('/api/keys', {}));
  unlinkSync(file);
  const after = [...(await Promise.all(burst)), ...(await Promise.all(Array.from({ length: 10 }, () => alice.post('/api/keys', {}))))];
  for (const reply of after) {
    t.is(reply.status, 503);
    t.is(reply.body.code, 'AUDIT_UNAVAILABLE');
  }
});
