/**
 * Takes the screenshots of docs/console.md: a gateway in this process (in memory, with a known admin
 * password), Debian's chromium driving the console as an operator does, three screens written as PNG
 * under docs/images/. Run with `npm run docs:console`.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createGateway } from '../src/app/create-gateway.js';
import { launchChromium } from '../test/_support/browser.js';
import { auditRows, createKey, createPrincipal, grant, openConsole, showScreen, signIn, verifyLog } from '../test/_support/console-page.js';

const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const ADMIN_PASSWORD = 'console-screenshots-0';

const gateway = await createGateway({
  logLevel: 'silent',
  keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD, seed: { principals: [{ name: 'ops', kind: 'group' }] } },
});
const { url } = await gateway.listen(0, '127.0.0.1');
const launched = await launchChromium();
try {
  if (launched.browser === undefined) throw new Error(launched.reason);
  const page = await openConsole(launched.browser, url);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await createPrincipal(page, 'dora', 'dora-password-5');
  await createPrincipal(page, 'eve', 'eve-password-6');
  await createKey(page, 'payroll export');
  await grant(page, 'dora', ['read', 'export']);
  await grant(page, 'ops', ['encrypt', 'decrypt']);
  await mkdir(IMAGES, { recursive: true });
  await page.screenshot({ path: `${IMAGES}console-keys.png`, fullPage: true });
  await auditRows(page);
  await verifyLog(page);
  await page.screenshot({ path: `${IMAGES}console-audit.png`, fullPage: true });
  await showScreen(page, 'health');
  await page.locator('#health-report').waitFor();
  await page.screenshot({ path: `${IMAGES}console-health.png`, fullPage: true });
  process.stdout.write(`wrote ${IMAGES}console-keys.png, console-audit.png and console-health.png\n`);
} finally {
  await launched.browser?.close();
  await gateway.close();
}
