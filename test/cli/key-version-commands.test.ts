import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { startCliGateway } from '../_support/cli-gateway.js';
import { killAllGateways } from '../_support/gateway-process.js';

const cli = await startCliGateway('versions');
test.after.always(killAllGateways);
const { dir, keygate } = cli;

test('keys rotate, versions and min-version through the real keygate binary; export takes --version', async (t) => {
  const env = await cli.signInAdmin();
  const created = await keygate(['keys', 'create', '--rotation-period', 'P30D', '--idempotency-key', 'cli-1', '--json'], env);
  t.is(created.status, 0, created.stderr);
  const key = JSON.parse(created.stdout) as { ttag: string; version: number; rotationPeriod?: string };
  t.like(key, { version: 1, rotationPeriod: 'P30D' });
  const replay = await keygate(['keys', 'create', '--rotation-period', 'P30D', '--idempotency-key', 'cli-1', '--json'], env);
  t.is(JSON.parse(replay.stdout).ttag, key.ttag, 'a retry with the same key answers the same key');

  const rotated = await keygate(['keys', 'rotate', key.ttag], env);
  t.is(rotated.status, 0, rotated.stderr);
  t.regex(rotated.stdout, /version 2 \(min 1\)/);
  const versions = await keygate(['keys', 'versions', key.ttag], env);
  t.regex(versions.stdout, /VERSION\s+STATE\s+CREATED\n1\s+active\s+\S+\n2\s+active/);
  const raised = await keygate(['keys', 'min-version', key.ttag, '2', '--json'], env);
  t.like(JSON.parse(raised.stdout), {
    minVersion: 2,
    versions: [
      { version: 1, state: 'retired' },
      { version: 2, state: 'active' },
    ],
  });

  const out = join(dir, 'key.bin');
  const exported = await keygate(['keys', 'export', key.ttag, '--out', out, '--version', '2'], env);
  t.is(exported.status, 0, exported.stderr);
  t.regex(exported.stdout, /16 bytes of version 2/);
  t.is(readFileSync(out).length, 16);
  const retired = await keygate(['keys', 'export', key.ttag, '--out', join(dir, 'old.bin'), '--version', '1'], env);
  t.not(retired.status, 0);
  t.regex(retired.stderr, /KEY_VERSION_RETIRED/);
  const lower = await keygate(['keys', 'min-version', key.ttag, '1'], env);
  t.regex(lower.stderr, /CONFLICT/);
  const bad = await keygate(['keys', 'min-version', key.ttag, 'zero'], env);
  t.not(bad.status, 0);
  t.regex(bad.stderr, /whole number from 1/);
  const badPeriod = await keygate(['keys', 'create', '--rotation-period', 'P1M'], env);
  t.regex(badPeriod.stderr, /rotationPeriod/);
});

test('keys disable and enable through the real keygate binary: a disabled key refuses export until enabled', async (t) => {
  const env = await cli.signInAdmin();
  const created = await keygate(['keys', 'create', '--json'], env);
  t.is(created.status, 0, created.stderr);
  const { ttag } = JSON.parse(created.stdout) as { ttag: string };

  const disabled = await keygate(['keys', 'disable', ttag], env);
  t.is(disabled.status, 0, disabled.stderr);
  t.regex(disabled.stdout, / disabled /);
  const refused = await keygate(['keys', 'export', ttag, '--out', join(dir, 'disabled.bin')], env);
  t.not(refused.status, 0);
  t.regex(refused.stderr, /KEY_DISABLED/);
  const enabled = await keygate(['keys', 'enable', ttag, '--json'], env);
  t.is(enabled.status, 0, enabled.stderr);
  t.like(JSON.parse(enabled.stdout), { ttag, state: 'active' });
  const exported = await keygate(['keys', 'export', ttag, '--out', join(dir, 'enabled.bin')], env);
  t.is(exported.status, 0, exported.stderr);
});

test('keys schedule-deletion and cancel-deletion through the real keygate binary: a pending key refuses export; cancelled, it is disabled', async (t) => {
  const env = await cli.signInAdmin();
  const created = await keygate(['keys', 'create', '--json'], env);
  t.is(created.status, 0, created.stderr);
  const { ttag } = JSON.parse(created.stdout) as { ttag: string };

  const outside = await keygate(['keys', 'schedule-deletion', ttag, '--days', '3'], env);
  t.not(outside.status, 0);
  t.regex(outside.stderr, /pendingDays/);
  const scheduled = await keygate(['keys', 'schedule-deletion', ttag, '--days', '8'], env);
  t.is(scheduled.status, 0, scheduled.stderr);
  t.regex(scheduled.stdout, / pending-deletion .* deleted at \d{4}-/);
  const refused = await keygate(['keys', 'export', ttag, '--out', join(dir, 'pending.bin')], env);
  t.not(refused.status, 0);
  t.regex(refused.stderr, /KEY_PENDING_DELETION/);
  const cancelled = await keygate(['keys', 'cancel-deletion', ttag, '--json'], env);
  t.is(cancelled.status, 0, cancelled.stderr);
  t.like(JSON.parse(cancelled.stdout), { ttag, state: 'disabled' });
});
