import { createServer } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { showScreen, signIn } from '../_support/console-page.js';
import { PASSWORDS, SEED } from '../_support/gateway.js';
import { healthOnceChecked } from '../_support/health.js';
import { clientConfig, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

/**
 * The health screen of a gateway on several key-server daemons lists each of them, as GET /api/health
 * does: one `keygate keyserver` process that serves, and a second address where nothing listens.
 */
const fixtures = await daemonFixtures(SEED);

/** An address on this host where nothing listens (a port the system gave and took back). */
async function deadAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return `https://127.0.0.1:${port}`;
}

await withChromium('console tests', (browser) => {
  test.after.always(killAllDaemons);
  test('the health screen lists every key-server daemon with its fingerprint and whether it serves', async (t) => {
    const daemon = await spawnDaemon(t, [
      '--data',
      join(fixtures.dir, 'console-health.db'),
      '--port',
      '0',
      '--seed',
      fixtures.seedPath,
      '--admin-password',
      PASSWORDS.admin,
    ]);
    const dead = await deadAddress();
    const keyServer = {
      kind: 'tls' as const,
      url: [daemon.url, dead],
      fingerprint: [daemon.fingerprint, 'ab'.repeat(32)],
      timeoutMs: 5_000,
      ...(await clientConfig()),
    };
    const { gw, page } = await startConsole(t, browser, [], { keyServer });
    const health = await healthOnceChecked(
      () => gw.call('GET', '/api/health'),
      (reply) => reply.body.keyServers?.[1]?.ok === false,
    );
    t.deepEqual(
      health.body.keyServers.map((d: { url: string; ok: boolean }) => [d.url, d.ok]),
      [
        [daemon.url, true],
        [dead, false],
      ],
    );

    await signIn(page, 'admin', PASSWORDS.admin);
    await showScreen(page, 'health');
    await page.locator('#health-daemons').waitFor();
    const rows = await page
      .locator('#health-daemons tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-url'), tr.querySelector('[data-field="state"]')?.textContent, tr.textContent]),
      );
    t.is(rows.length, 2, 'both daemons, the one that does not answer too');
    t.deepEqual(
      rows.map(([url, state]) => [url, state]),
      [
        [daemon.url, 'serves'],
        [dead, 'unavailable'],
      ],
    );
    t.true(rows[0]![2]!.includes(daemon.fingerprint), 'the serving daemon with the fingerprint it showed');
    t.is(await page.locator('#health-report dd[data-field="check-keyServer"]').textContent(), 'ok', 'ok while one serves');
  });
});
