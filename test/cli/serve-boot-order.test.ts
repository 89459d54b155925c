import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { runKeygate } from '../_support/process-run.js';

test.after.always(killAllGateways);

/** A loopback port another process holds, as an operator's port may be taken. */
async function takenPort(t: { teardown(fn: () => void): void }): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  t.teardown(() => server.close());
  return (server.address() as { port: number }).port;
}

/** The generated passwords `keygate serve` printed in its framed block. */
function generatedPasswords(output: string): Record<string, string> {
  const lines = output.split('\n');
  const start = lines.indexOf('keygate: generated passwords (shown once):');
  if (start === -1) return {};
  const users: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    const user = /^ {2}(\w+): (\S+)$/.exec(line);
    if (user === null) break;
    users[user[1]!] = user[2]!;
  }
  return users;
}

async function login(url: string, user: string, password: string): Promise<number> {
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, password }),
  });
  await response.arrayBuffer();
  return response.status;
}

test('a first keygate serve on a port in use creates nothing, and the retry shows the generated passwords, which log in', async (t) => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'keygate-port-taken-')), 'data');
  const port = await takenPort(t);
  const refused = await runKeygate(t, ['serve'], { TE_GATEWAY_HOST: '127.0.0.1', TE_GATEWAY_PORT: String(port), TE_GATEWAY_DATA_DIR: dataDir });
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
  const gateway = await spawnGateway(t, { TE_GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'keygate-first-order-')), TE_GATEWAY_LOG_LEVEL: 'info' }, [], {
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
