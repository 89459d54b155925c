import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { exportAKey, plantTwoBreaks, type RawDb, TAMPER_WRITER } from '../_support/audit-tampering.js';
import { withChromium } from '../_support/browser.js';
import { startConsole } from '../_support/browser-gateway.js';
import { signIn, verifyLog } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/**
 * The console's audit screen lists every break the verifier found (docs/spec.md §9.5), not only the
 * first: an edited login entry does not hide a later edited export record.
 */

await withChromium('console audit break tests', (browser) => {
  test('the audit screen names both an edited login entry and a later edited export record', async (t) => {
    const dir = scratchDir('keygate-console-breaks-');
    const file = join(dir, 'audit.db');
    const { gw, page } = await startConsole(t, browser, [], {
      audit: { kind: 'sqlite', file },
      auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 },
    });
    await exportAKey(gw);
    const raw = new Database(file);
    t.teardown(() => raw.close());
    const db: RawDb = {
      all: async (sql, params = []) => raw.prepare(sql).all(...params) as Record<string, unknown>[],
      run: async (sql, params = []) => void raw.prepare(sql).run(...params),
    };
    const expected = await plantTwoBreaks(db);
    await signIn(page, 'admin', PASSWORDS.admin);
    const verdict = await verifyLog(page);
    t.false(verdict.ok);
    t.regex(verdict.text, new RegExp(`^Broken: edited at entry ${expected[0]!.seq} of writer ${TAMPER_WRITER}`));
    t.deepEqual(verdict.breaks, expected, 'the screen lists both breaks');
  });
});
