import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { auditCli } from './audit-tampering.js';
import type { TestGateway } from './gateway.js';

/**
 * The audit keys gateways sharing one store are given (one MAC key, one checkpoint key), and the files
 * a verifier is handed: the MAC key, and the checkpoint public key alone (an outside auditor's view).
 */
export interface SharedAuditKeys {
  /** Base64 of the 32-byte MAC key, as `auditIntegrity.key`. */
  readonly key: string;
  /** PKCS#8 PEM of the Ed25519 checkpoint key, as `auditIntegrity.signingKey`. */
  readonly signingKey: string;
  readonly keyFile: string;
  readonly publicKeyFile: string;
  /** An empty directory: a verify run from it holds no MAC key and no witness. */
  readonly emptyDir: string;
}

export function sharedAuditKeys(t: ExecutionContext): SharedAuditKeys {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-keys-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const key = randomBytes(32).toString('base64');
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const keyFile = join(dir, 'audit-mac.key');
  writeFileSync(keyFile, key, { mode: 0o600 });
  const publicKeyFile = join(dir, 'checkpoint.pem');
  writeFileSync(publicKeyFile, createPublicKey(createPrivateKey(signingKey)).export({ type: 'spki', format: 'pem' }).toString());
  const emptyDir = join(dir, 'auditor');
  return { key, signingKey, keyFile, publicKeyFile, emptyDir };
}

/**
 * Verifies the whole log three ways and asserts each says it is clean: `keygate audit verify` as a
 * process (MAC key, public key, the writer's witness in `dataDir`), `GET /api/audit/verify` on `gw`
 * as `admin`, and `keygate audit verify` with the checkpoint public key only. `source` names the
 * store to the CLI (`--sqlite FILE` or `--postgres URL --schema S`). Answers the entries checked.
 */
export async function verifiesCleanThreeWays(
  t: ExecutionContext,
  source: readonly string[],
  keys: SharedAuditKeys,
  dataDir: string,
  gw: TestGateway,
  admin: Record<string, string>,
): Promise<number> {
  const full = await auditCli(['verify', ...source, '--data-dir', dataDir, '--key-file', keys.keyFile, '--public-key', keys.publicKeyFile]);
  t.is(full.status, 0, `keygate audit verify: ${JSON.stringify(full.answer)} ${full.stderr}`);
  t.like(full.answer, { ok: true });
  const online = await gw.call('GET', '/api/audit/verify', { headers: admin });
  t.is(online.status, 200, online.text);
  t.like(online.body, { ok: true }, `GET /api/audit/verify: ${online.text}`);
  const publicOnly = await auditCli(['verify', ...source, '--data-dir', keys.emptyDir, '--public-key', keys.publicKeyFile]);
  t.is(publicOnly.status, 0, `public-key-only verify: ${JSON.stringify(publicOnly.answer)} ${publicOnly.stderr}`);
  t.like(publicOnly.answer, { ok: true });
  return full.answer.checked as number;
}
