import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { generatedPasswords, login } from '../_support/first-start.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { runKeygate } from '../_support/process-run.js';
import { scratchDir } from '../_support/scratch-dirs.js';

test.after.always(killAllGateways);

/** A loopback port another process holds, as an operator's port may be taken. */
async function takenPort(t: { teardown(fn: () => void): void }): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  t.teardown(() => server.close());
  return (server.address() as { port: number }).port;
}

/** The generated passwords `keygate serve` printed in its framed block. */
test('a first keygate serve on a port in use creates nothing, and the retry shows the generated passwords, which log in', async (t) => {
  const dataDir = join(scratchDir('keygate-port-taken-'), 'data');
  const port = await takenPort(t);
  const refused = await runKeygate(t, ['serve'], {
    TE_GATEWAY_HOST: '127.0.0.1',
    TE_GATEWAY_PORT: String(port),
    TE_GATEWAY_DATA_DIR: dataDir,
  });
  t.is(refused.status, 1, `${refused.stdout}${refused.stderr}`);
  t.regex(refused.stderr, /^keygate: cannot listen: .*EADDRINUSE/m);
  t.false(refused.stdout.includes('generated passwords'), refused.stdout);
  const left = existsSync(dataDir) ? readdirSync(dataDir) : [];
  t.deepEqual(left, [], `nothing was created before the port was bound: ${left.join(', ')}`);

  const retry = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir });
  const passwords = generatedPasswords(retry.output());
  t.deepEqual(Object.keys(passwords).sort(), ['admin', 'guest'], retry.output());
  t.is(await login(retry.url, 'admin', passwords.admin!), 201);
});

test('keygate serve: on a first start every warning, of the log and of stderr, is written before the listening line (one stream, as a terminal shows them)', async (t) => {
  const gateway = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: scratchDir('keygate-first-order-'), TE_GATEWAY_LOG_LEVEL: 'info' }, [], {
    oneStream: true,
  });
  t.is(await gateway.stop(), 0);
  const lines = gateway.output().split('\n');
  const listening = lines.findIndex((line) => line.startsWith('keygate: listening '));
  const isWarning = (line: string) => line.startsWith('keygate: warning: ') || /^\{"level":(40|50),/.test(line);
  t.true(
    lines.some((line) => isWarning(line) && line.startsWith('{') && line.includes('generated master key')),
    `the log says the master key was generated: ${gateway.output()}`,
  );
  lines.forEach((line, index) => {
    if (isWarning(line)) t.true(index < listening, `before listening (line ${index}, listening at ${listening}): ${line}`);
  });
});

test('keygate serve warns, before listening, of every secret file its group or others can read, with the chmod that fixes it', async (t) => {
  const root = scratchDir('keygate-loose-secrets-');
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  const file = (name: string, content: string, mode: number) => {
    const path = join(root, name);
    writeFileSync(path, content);
    chmodSync(path, mode);
    return path;
  };
  const loose = {
    TE_KEYSERVER_ADMIN_PASSWORD_FILE: file('admin-password', 'an-admin-password-from-a-file\n', 0o644),
    TE_KEYSERVER_MASTER_KEY_FILE: file('master.key', `${randomBytes(32).toString('base64')}\n`, 0o640),
    TE_GATEWAY_AUDIT_KEY_FILE: file('audit-mac.key', `${randomBytes(32).toString('base64')}\n`, 0o604),
  };
  const tight = { TE_GATEWAY_AUDIT_SIGNING_KEY_FILE: file('audit-signing.pem', signingPem(), 0o600) };
  const gateway = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir, ...loose, ...tight });
  // A key the gateway kept in its data directory, opened up by a careless copy, is found at the next start.
  t.is(await gateway.stop(), 0);
  chmodSync(join(dataDir, 'keyserver-identity.key'), 0o644);
  const again = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: dataDir, ...loose, ...tight }, [], { oneStream: true });

  for (const output of [gateway.output(), again.output()]) {
    const lines = output.split('\n');
    const listening = lines.findIndex((line) => line.startsWith('keygate: listening '));
    for (const [variable, path] of Object.entries(loose)) {
      const index = lines.findIndex((line) => line.startsWith(`keygate: warning: ${variable}: ${path} `));
      t.true(index !== -1 && index < listening, `${variable} warned before listening:\n${output}`);
      t.regex(lines[index] ?? '', new RegExp(`readable by its group or others \\(mode 06[04][04]\\); run: chmod 600 ${path}$`));
    }
    t.false(output.includes(tight.TE_GATEWAY_AUDIT_SIGNING_KEY_FILE), 'a file only its owner reads is not named');
    t.false(output.includes('an-admin-password-from-a-file'), 'the content is never shown');
  }
  t.regex(
    again.output(),
    new RegExp(`keygate: warning: TE_GATEWAY_DATA_DIR: ${join(dataDir, 'keyserver-identity.key')} holds a secret .*chmod 600`),
  );
  t.false(gateway.output().includes('TE_GATEWAY_DATA_DIR:'), 'what the gateway generated itself is 0600');
});

function signingPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}
