import { spawnSync } from 'node:child_process';
import test from 'ava';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';

test.after.always(killAllGateways);

const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;

/** Waits (at most 5 s) until the process has written `text`: a line may come a chunk after the start line. */
async function written(output: () => string, text: string): Promise<void> {
  for (let waited = 0; !output().includes(text) && waited < 5_000; waited += 50) await new Promise((settle) => setTimeout(settle, 50));
}

test('keygate serve says where the console is, right after where it listens, and serves it there', async (t) => {
  const gw = await spawnGateway(t, {});
  await written(gw.output, 'keygate: console url=');
  const lines = gw.output().split('\n');
  const listening = lines.findIndex((line) => line.startsWith('keygate: listening url='));
  t.is(lines[listening + 1], `keygate: console url=${gw.url}/console/`, gw.output());
  const page = await fetch(`${gw.url}/console/`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(page.headers.get('content-security-policy') ?? '', /^default-src 'none'; script-src 'self';/);
  t.regex(await page.text(), /<script type="module" src="console.js"><\/script>/);
  const script = await fetch(`${gw.url}/console/console.js`);
  t.is(script.status, 200);
  t.regex(script.headers.get('content-type') ?? '', /^text\/javascript/);
  t.true((await script.text()).includes('/api/session'), 'the bundled script speaks to /api');
});

test('TE_GATEWAY_CONSOLE=off: no console line, and /console is not served', async (t) => {
  const gw = await spawnGateway(t, { TE_GATEWAY_CONSOLE: 'off' });
  const page = await fetch(`${gw.url}/console/`);
  t.is(page.status, 404);
  t.is(page.headers.get('content-security-policy'), null);
  t.is((await fetch(`${gw.url}/console/console.js`)).status, 404);
  t.false(gw.output().includes('console url='), gw.output());
});

test('TE_GATEWAY_CONSOLE with another value stops the boot with one line naming it', (t) => {
  const child = spawnSync(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, TE_GATEWAY_HOST: '127.0.0.1', TE_GATEWAY_PORT: '0', TE_GATEWAY_CONSOLE: 'maybe' },
    encoding: 'utf8',
    timeout: 45_000,
  });
  t.is(child.status, 2, child.stderr);
  t.is(child.stderr.trim(), 'keygate: TE_GATEWAY_CONSOLE: expected on or off, got "maybe"');
  t.false(child.stdout.includes('listening'));
});
