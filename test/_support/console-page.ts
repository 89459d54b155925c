import type { Browser, Page } from 'playwright-core';

/**
 * The operator console driven as an operator drives it: each step clicks or types in the page and
 * waits for what the page shows once the step is done (never a fixed delay).
 */
export async function openConsole(browser: Browser, gatewayUrl: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1180, height: 820 } });
  const page = await context.newPage();
  await page.goto(`${gatewayUrl}/console`);
  await page.locator('body[data-ready="true"]').waitFor();
  return page;
}

export async function signIn(page: Page, user: string, password: string, options: { keep?: boolean } = {}): Promise<void> {
  await page.fill('#user', user);
  await page.fill('#password', password);
  if (options.keep === true) await page.check('#keep');
  await page.click('#sign-in-button');
  await page.locator('#whoami').waitFor();
}

export async function showScreen(page: Page, name: string): Promise<void> {
  await page.click(`#nav-${name}`);
  await page.locator(`#nav-${name}[aria-current="page"]`).waitFor();
}

export async function createPrincipal(page: Page, name: string, password: string): Promise<void> {
  await showScreen(page, 'principals');
  await page.fill('#principal-name', name);
  await page.fill('#principal-password', password);
  await page.click('#create-principal-button');
  await page.locator('#principal-created').waitFor();
  await page.locator(`#principals tr[data-principal="${name}"]`).waitFor();
}

/** Creates a key with this label; answers its ttag as the page shows it. */
export async function createKey(page: Page, label: string): Promise<string> {
  await showScreen(page, 'keys');
  await page.fill('#key-label', label);
  await page.click('#create-key-button');
  const ttag = page.locator('#key-detail dd[data-field="ttag"]');
  await ttag.waitFor();
  return (await ttag.textContent())!;
}

/** On the key shown: opens its ACL, grants `rights` to `principal`, and answers the rights the ACL then shows. */
export async function grant(page: Page, principal: string, rights: readonly string[]): Promise<string> {
  await page.click('#acl-refresh');
  await page.locator('#grant').waitFor();
  await page.fill('#grant-principal', principal);
  for (const box of await page.locator('#grant input[name="right"]').all()) {
    if (rights.includes((await box.getAttribute('value'))!)) await box.check();
    else await box.uncheck();
  }
  await page.click('#grant-button');
  const selector = `#acl tr[data-principal="${principal}"] td[data-field="rights"]`;
  // The ACL table is redrawn once the grant's answer lands: wait for the row to show these rights, not
  // the ones an earlier grant left there.
  const wanted = [...rights].sort().join(',');
  await page.waitForFunction(
    ({ selector, wanted }) => {
      const cell = document.querySelector(selector);
      return (
        cell !== null &&
        (cell.textContent ?? '')
          .split(/[\s,]+/)
          .filter(Boolean)
          .sort()
          .join(',') === wanted
      );
    },
    { selector, wanted },
  );
  return (await page.locator(selector).textContent())!;
}

/** The audit screen's rows (operation and outcome, newest first). */
export async function auditRows(page: Page): Promise<{ operation: string; outcome: string }[]> {
  await showScreen(page, 'audit');
  await page.locator('#audit-rows').waitFor();
  const rows = await page.locator('#audit-rows tbody tr').all();
  return Promise.all(
    rows.map(async (row) => ({
      operation: (await row.getAttribute('data-operation'))!,
      outcome: (await row.getAttribute('data-outcome'))!,
    })),
  );
}

/** Presses "Verify the log" on the audit screen and answers the verdict's words, its break kind and every listed break. */
export async function verifyLog(
  page: Page,
): Promise<{ ok: boolean; kind: string; text: string; breaks: { writer: string; seq: number; kind: string }[] }> {
  await showScreen(page, 'audit');
  const shown = page.locator('#verdict');
  const before = (await shown.count()) === 0 ? 0 : Number(await shown.getAttribute('data-run'));
  await page.click('#verify-button');
  const verdict = page.locator(`#verdict[data-run="${before + 1}"]`);
  await verdict.waitFor();
  return {
    ok: (await verdict.getAttribute('data-ok')) === 'true',
    kind: (await verdict.getAttribute('data-break'))!,
    text: (await verdict.locator('p').first().textContent())!,
    breaks: await Promise.all(
      (await verdict.locator('#verdict-breaks tbody tr').all()).map(async (row) => ({
        writer: (await row.getAttribute('data-writer'))!,
        seq: Number(await row.getAttribute('data-seq')),
        kind: (await row.getAttribute('data-kind'))!,
      })),
    ),
  };
}
