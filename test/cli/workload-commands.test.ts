import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { untilKillAll } from '../_support/child-processes.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const dir = scratchDir('keygate-cli-jwt-');
const adminPasswordFile = join(dir, 'admin-password');
writeFileSync(adminPasswordFile, 'cli-admin-password-1\n', { mode: 0o600 });
const gateway = await spawnGateway(untilKillAll, {
  TE_KEYSERVER_ADMIN_PASSWORD_FILE: adminPasswordFile,
  TE_GATEWAY_DATA_DIR: scratchDir('keygate-cli-jwt-data-'),
});
test.after.always(killAllGateways);

function keygate(args: readonly string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, KEYGATE_URL: gateway.url, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('keygate issuers set/list/delete manage a trusted issuer, and keygate login --jwt-file signs a workload in with its token', async (t) => {
  const login = await keygate(['login', '--user', 'admin', '--password-file', adminPasswordFile]);
  t.is(login.status, 0, login.stderr);
  const admin = { KEYGATE_SESSION: login.stdout.trim() };
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const settings = {
    issuer: 'https://kubernetes.default.svc.cluster.local',
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: 'sa-1' }] },
    audiences: ['keygate'],
    algorithms: ['ES256'],
    principal: 'k8s-{kubernetes.io/namespace}-{kubernetes.io/serviceaccount/name}',
    createPrincipals: true,
    roles: ['service'],
  };
  const settingsFile = join(dir, 'issuer.json');
  writeFileSync(settingsFile, JSON.stringify(settings));
  const set = await keygate(['issuers', 'set', 'cluster', '--file', settingsFile], admin);
  t.is(set.status, 0, set.stderr);
  t.regex((await keygate(['issuers', 'list'], admin)).stdout, /cluster\s+https:\/\/kubernetes\.default\.svc\.cluster\.local\s+k8s-/);
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({
    iss: settings.issuer,
    aud: ['keygate'],
    sub: 'system:serviceaccount:payments:billing',
    iat: now,
    nbf: now,
    exp: now + 600,
    'kubernetes.io': { namespace: 'payments', serviceaccount: { name: 'billing', uid: '0f4d6c22-5b1a-4b8e-8d7e-6f2f1b3c9a10' } },
  })
    .setProtectedHeader({ alg: 'ES256', kid: 'sa-1' })
    .sign(privateKey);
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const signedIn = await keygate(['login', '--jwt-file', tokenFile]);
  t.is(signedIn.status, 0, signedIn.stderr);
  const whoami = await keygate(['whoami'], { KEYGATE_SESSION: signedIn.stdout.trim() });
  t.regex(whoami.stdout, /^k8s-payments-billing \(jwt\) expires /);
  t.false(signedIn.stdout.includes(token) || signedIn.stderr.includes(token));
  t.is((await keygate(['issuers', 'delete', 'cluster'], admin)).status, 0);
  const refused = await keygate(['login', '--jwt-file', tokenFile]);
  t.not(refused.status, 0);
  t.regex(refused.stderr, /WRONG_CREDENTIAL/);
});
