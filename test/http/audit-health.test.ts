import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createKey, signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';
import { healthUntil } from '../_support/health-wait.js';
import { fillDisk, freeDisk, smallDisk, withSmallDisk } from '../_support/small-disk.js';

withSmallDisk('with the audit disk full, /health says not ok and sensitive operations are refused; freed, both recover', async (t) => {
  const dir = smallDisk(t, '2m');
  const gw = await startGateway(t, { audit: { kind: 'sqlite', file: join(dir, 'audit.db') } });
  const alice = await signIn(gw, 'alice');
  await createKey(alice);
  t.like((await gw.call('GET', '/api/health')).body, { ok: true, checks: { auditStore: 'ok' } });

  fillDisk(dir);
  t.like((await healthUntil(gw, false, { path: '/health' })).body, { ok: false });
  const health = await gw.call('GET', '/api/health');
  t.is(health.status, 503);
  t.like(health.body, { ok: false, checks: { auditStore: 'unavailable' } });
  const refused = await alice.post('/api/keys', {});
  t.is(refused.status, 503);
  t.is(refused.body.code, 'AUDIT_UNAVAILABLE');
  t.like((await gw.call('GET', '/api/health')).body, { ok: false, checks: { auditStore: 'unavailable' } });

  freeDisk(dir);
  t.like((await healthUntil(gw, true)).body, { ok: true, checks: { auditStore: 'ok' } });
  await createKey(alice);
});

test('a deleted audit database file makes /health say not ok', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.db');
  const gw = await startGateway(t, { audit: { kind: 'sqlite', file } });
  t.like((await gw.call('GET', '/api/health')).body, { ok: true, checks: { auditStore: 'ok' } });
  unlinkSync(file);
  t.like((await healthUntil(gw, false)).body, { ok: false, checks: { auditStore: 'unavailable' } });
});

test('a replaced audit database file makes /health say not ok', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.db');
  const gw = await startGateway(t, { audit: { kind: 'sqlite', file } });
  t.like((await gw.call('GET', '/health')).body, { ok: true });
  writeFileSync(join(dir, 'other.db'), '');
  renameSync(join(dir, 'other.db'), file);
  t.like((await healthUntil(gw, false)).body, { ok: false, checks: { auditStore: 'unavailable' } });
});
