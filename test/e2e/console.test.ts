import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { type RawDb, TAMPER_WRITER, TAMPERINGS } from '../_support/audit-tampering.js';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { auditRows, createKey, createPrincipal, grant, signIn, verifyLog } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/**
 * The operator console in Debian's chromium, headless, served by a real gateway on a real socket with
 * no CORS allowlist: the page and /api share one origin. The audit log is SQLite, so the test can
 * tamper with it directly, as someone who can write the file but holds no key.
 */

async function stage(t: ExecutionContext, browser: Browser) {
  const dir = scratchDir('keygate-console-');
  const file = join(dir, 'audit.db');
  const { gw, page } = await startConsole(t, browser, [], {
    audit: { kind: 'sqlite', file },
    auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 },
  });
  return { gw, page, file };
}

function rawDb(t: ExecutionContext, file: string): RawDb {
  const raw = new Database(file);
  t.teardown(() => raw.close());
  return {
    all: async (sql, params = []) => raw.prepare(sql).all(...params) as Record<string, unknown>[],
    run: async (sql, params = []) => void raw.prepare(sql).run(...params),
  };
}

await withChromium('console tests', (browser) => {
  test('the console signs in, creates a principal and a key, grants, shows the audit rows, verifies clean, then names a tampered entry', async (t) => {
    const { gw, page, file } = await stage(t, browser);
    await signIn(page, 'admin', PASSWORDS.admin);
    t.regex((await page.locator('#whoami').textContent())!, /^admin \(password session\)/);

    await createPrincipal(page, 'dora', 'dora-password-5');
    const ttag = await createKey(page, 'console key');
    t.regex(ttag, /^[A-Za-z0-9+/]{22,}={0,2}$/);
    t.is(await grant(page, 'dora', ['read', 'export']), 'read, export');
    t.is(await grant(page, 'dora', ['encrypt']), 'encrypt', 'a second grant replaces the rights');
    const acl = await gw.call('GET', `/api/keys/${encodeURIComponent(ttag)}/acl`, {
      headers: { Authorization: `Bearer ${await gw.login('admin')}` },
    });
    t.deepEqual(acl.body.items, [{ principal: 'dora', rights: ['encrypt'] }], 'the page changed the ACL the /api reads');

    const rows = await auditRows(page);
    for (const operation of ['session.password', 'principals.create', 'keys.create', 'acl.put', 'acl.read']) {
      t.true(
        rows.some((row) => row.operation === operation && row.outcome === 'ok'),
        `an ok row for ${operation}`,
      );
    }
    t.true((await page.locator('#audit-timeline rect').count()) > 0, 'the timeline draws the minutes');

    const clean = await verifyLog(page);
    t.true(clean.ok, clean.text);
    t.regex(clean.text, /^Clean: \d+ entries checked/);

    const edited = TAMPERINGS.find((tampering) => tampering.kind === 'edited')!;
    await edited.tamper(rawDb(t, file));
    const broken = await verifyLog(page);
    t.false(broken.ok);
    t.is(broken.kind, 'edited');
    t.regex(broken.text, new RegExp(`^Broken: edited at entry ${await edited.seq(rawDb(t, file))} of writer ${TAMPER_WRITER}`));

    t.false(
      gw.seen.some((request) => request.hasCookie || (request.origin !== undefined && request.origin !== gw.url)),
      'no cookie, and no request from another origin',
    );
    t.false(
      gw.seen.some((request) => request.method === 'OPTIONS'),
      'same origin: no preflight, no CORS allowlist needed',
    );
  });
});
