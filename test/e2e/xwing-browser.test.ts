import test from 'ava';
import { withChromium } from '../_support/browser.js';
import { clientPage, startBrowserGateway } from '../_support/browser-gateway.js';
import { PASSWORDS } from '../_support/gateway.js';

/**
 * docs/spec.md §3.4 item 3 in Debian's chromium, headless: the browser bundle of keygate/client makes
 * a fresh X-Wing key pair in the page and opens the HPKE wraps of an export and of a data key, to the
 * bytes the P-256 wrap delivers.
 */

interface PageOutcome {
  readonly exportedByXWing: string;
  readonly exportedByP256: string;
  readonly dataKeyByXWing: string;
  readonly reopenedByXWing: string;
  readonly reopenedByP256: string;
}

await withChromium('X-Wing browser tests', (browser) => {
  test('the page opens an export and a data key wrapped to its X-Wing key pair, to the bytes of the P-256 wrap', async (t) => {
    const gw = await startBrowserGateway(t, []);
    const page = await clientPage(t, browser, gw, 'xwing-test');

    const outcome: PageOutcome = await page.evaluate(unwrapInPage, { password: PASSWORDS.alice });

    t.is(outcome.exportedByXWing.length, 64);
    t.is(outcome.exportedByXWing, outcome.exportedByP256);
    t.is(outcome.dataKeyByXWing.length, 32);
    t.is(outcome.reopenedByXWing, outcome.dataKeyByXWing);
    t.is(outcome.reopenedByP256, outcome.dataKeyByXWing);
  });
});

/** Runs in the page: signs in, makes a key, exports it and a data key to fresh X-Wing and P-256 keys. */
async function unwrapInPage({ password }: { password: string }): Promise<PageOutcome> {
  const { KeygateClient, newXWingKeyPair } = (window as unknown as { keygate: typeof import('../../src/client/index.js') }).keygate;
  const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const session = await new KeygateClient({ baseUrl: location.origin }).login('alice', password);
  const { ttag } = await session.createKey({ keyLen: 32 });
  const made = await session.generateDataKey(ttag, { keyLen: 16, clientKey: newXWingKeyPair });
  return {
    exportedByXWing: hex((await session.exportKey(ttag, { clientKey: newXWingKeyPair })).key),
    exportedByP256: hex((await session.exportKey(ttag)).key),
    dataKeyByXWing: hex(made.key ?? new Uint8Array()),
    reopenedByXWing: hex((await session.openDataKey(ttag, made.blob, { clientKey: newXWingKeyPair })).key),
    reopenedByP256: hex((await session.openDataKey(ttag, made.blob)).key),
  };
}
