import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import test from 'ava';
import type { Page } from 'playwright-core';
import { withChromium } from '../_support/browser.js';
import { type BrowserGateway, startConsole } from '../_support/browser-gateway.js';
import { createKey, signIn } from '../_support/console-page.js';
import { PASSWORDS } from '../_support/gateway.js';
import { HOSTILE } from '../_support/hostile-text.js';

/**
 * The key page's crypto tool in Chromium with an encryption context (docs/spec.md §4.5b) and the
 * file tool's streams (docs/spec.md §4.5a, Streams): what the page offers, and what it refuses.
 */

/** Sets the context editor's rows to exactly these members: rows added as needed, the rows after them removed. */
async function setContext(page: Page, members: readonly (readonly [string, string])[]): Promise<void> {
  for (const [index, [name, value]] of members.entries()) {
    const row = page.locator(`#crypto-context [data-row="${index}"]`);
    if ((await row.count()) === 0) await page.click('#crypto-context-add');
    await row.locator('input[name="context-name"]').fill(name);
    await row.locator('input[name="context-value"]').fill(value);
  }
  const rows = page.locator('#crypto-context .context-row');
  while ((await rows.count()) > members.length) await rows.last().locator('button[name="context-remove"]').click();
}

/** How many requests of this method and path reached the gateway so far. */
function requests(gw: BrowserGateway, method: string, path: string): number {
  return gw.seen.filter((seen) => seen.method === method && seen.path === path).length;
}

/** Clicks the file tool's download link and answers the file's bytes and the name it was offered under. */
async function download(page: Page, kind: 'sealed' | 'plain'): Promise<{ bytes: Buffer; name: string }> {
  const link = page.locator(`#crypto-file-download[data-kind="${kind}"]`);
  await link.waitFor();
  const [saved] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { bytes: await readFile((await saved.path())!), name: saved.suggestedFilename() };
}

/** Picks `bytes` as the stream file named `name`, decrypts, and waits for the file tool's error of `code`; answers its text. */
async function refusedFile(page: Page, name: string, bytes: Buffer, code: string): Promise<string> {
  await page.setInputFiles('#crypto-file-sealed', { name, mimeType: 'application/octet-stream', buffer: bytes });
  await page.click('#crypto-file-decrypt');
  const error = page.locator(`#key-crypto-file > p.error[data-code="${code}"]`);
  await error.waitFor();
  return (await error.textContent())!;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

await withChromium('console crypto tests', (browser) => {
  test('text encrypted with a context decrypts with it alone: another value is DECRYPT_FAILED, a bad member is refused before sending', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    await signIn(page, 'admin', PASSWORDS.admin);
    const ttag = await createKey(page, 'context key');
    const hostile = HOSTILE.filter((entry) => entry.forbidden === 'never' && entry.value.length <= 256);
    const context = [['tenant', 'acme'], ...hostile.map((entry, index) => [`hostile.${index}`, entry.value] as const)] as const;
    await setContext(page, context);
    const text = 'sealed with a context';
    await page.fill('#crypto-text', text);
    await page.click('#crypto-encrypt');
    await page.waitForFunction(() => (document.getElementById('crypto-sealed') as HTMLTextAreaElement | null)?.value.startsWith('kg:v1:'));
    const sealed = await page.inputValue('#crypto-sealed');

    const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
    const bare = await gw.call('POST', '/api/crypto/decrypt', { headers: admin, body: { ttag, sealed } });
    t.like(bare, { status: 400, body: { code: 'DECRYPT_FAILED' } }, 'the context is bound: without it the text does not open');
    const opened = await gw.call('POST', '/api/crypto/decrypt', {
      headers: admin,
      body: { ttag, sealed, context: Object.fromEntries(context) },
    });
    t.is(Buffer.from(opened.body.plaintext as string, 'base64').toString('utf8'), text);

    await page.click('#crypto-decrypt');
    await page.locator('#crypto-plaintext').waitFor();
    t.is(await page.locator('#crypto-plaintext').textContent(), text);

    await setContext(page, [['tenant', 'acme-2']]);
    await page.click('#crypto-decrypt');
    const failed = page.locator('#key-crypto > p.error[data-code="DECRYPT_FAILED"]');
    await failed.waitFor();
    t.regex((await failed.textContent())!, /HTTP 400/);

    const encrypts = requests(gw, 'POST', '/api/crypto/encrypt');
    for (const [name, value, row] of [
      ['bad name', 'x', 1],
      ['tenant', `acme${HOSTILE.find((entry) => entry.what === 'an escape sequence')!.value}`, 1],
      ['tenant', 'v'.repeat(257), 1],
      ['hostile.0', 'a repeated name', 2],
    ] as const) {
      await setContext(
        page,
        row === 1
          ? [[name, value]]
          : [
              ['hostile.0', 'first'],
              [name, value],
            ],
      );
      await page.click('#crypto-encrypt');
      const refused = page.locator('#key-crypto > p.error[data-code="BAD_REQUEST"]');
      await refused.waitFor();
      t.regex((await refused.textContent())!, new RegExp(`^BAD_REQUEST: context row ${row}: `), name);
      t.false((await refused.textContent())!.includes('bad name'), 'the row is named by its number, never by its name');
    }
    t.is(requests(gw, 'POST', '/api/crypto/encrypt'), encrypts, 'no refused context reached the gateway');

    while ((await page.locator('#crypto-context-add').isEnabled()) === true) await page.click('#crypto-context-add');
    t.is(await page.locator('#crypto-context .context-row').count(), 16, 'at most 16 members');
  });

  test('a 1 MB file round-trips through the two downloads; a changed segment, a wrong context and a non-stream are refused and offer nothing', async (t) => {
    const { gw, page } = await startConsole(t, browser);
    await signIn(page, 'admin', PASSWORDS.admin);
    await createKey(page, 'file key');
    await setContext(page, [['tenant', 'acme']]);
    // What the page sent and received for each data key: read once the requests are done.
    const dataKeys: Promise<{ body: Record<string, unknown>; answer: Record<string, unknown> }>[] = [];
    page.on('requestfinished', (request) => {
      if (!new URL(request.url()).pathname.startsWith('/api/crypto/datakey')) return;
      dataKeys.push(request.response().then(async (response) => ({ body: request.postDataJSON(), answer: await response!.json() })));
    });
    const original = randomBytes(1_000_003);
    await page.setInputFiles('#crypto-file-plain', { name: 'report.bin', mimeType: 'application/octet-stream', buffer: original });
    await page.click('#crypto-file-encrypt');
    const sealed = await download(page, 'sealed');
    t.is(sealed.name, 'report.bin.kgst');
    t.is(sealed.bytes.subarray(0, 4).toString('latin1'), 'KGST');
    t.is(await page.locator('#crypto-file-progress').getAttribute('data-read'), String(original.length), 'progress in bytes read');
    t.true(sealed.bytes.includes(Buffer.from('tenant')), "the header carries the stream's context");

    const opens = requests(gw, 'POST', '/api/crypto/datakey/open');
    await page.setInputFiles('#crypto-file-sealed', { name: sealed.name, mimeType: 'application/octet-stream', buffer: sealed.bytes });
    await page.click('#crypto-file-decrypt');
    const plain = await download(page, 'plain');
    t.is(plain.name, 'report.bin');
    t.is(sha256(plain.bytes), sha256(original), 'the plaintext download is the original file');
    t.is(requests(gw, 'POST', '/api/crypto/datakey/open'), opens + 1, 'one data-key request per stream');
    const asks = await Promise.all(dataKeys);
    t.is(asks.length, 2);
    for (const { body, answer } of asks) {
      t.like(body, { context: { tenant: 'acme' } });
      t.is(typeof body.clientPubKey, 'string', 'the data key is asked for wrapped to a key of the client');
      t.is(typeof answer.wrapped, 'object');
      t.false('key' in answer || 'plaintext' in answer, 'no data key in clear reaches the page');
    }

    // Segment 1 (of 4, 256 KiB each): one byte of its ciphertext changed.
    const headerLength = sealed.bytes.readUInt16BE(5);
    const segmentSize = sealed.bytes.readUInt32BE(7);
    const tampered = Buffer.from(sealed.bytes);
    tampered[headerLength + (segmentSize + 16) + 100]! ^= 0x01;
    t.regex(await refusedFile(page, sealed.name, tampered, 'STREAM_DECRYPT_FAILED'), /segment 1 does not authenticate/);
    t.is(await page.locator('#crypto-file-download').count(), 0, 'nothing offered after a failed decryption');

    await setContext(page, [['tenant', 'other']]);
    const asked = requests(gw, 'POST', '/api/crypto/datakey/open');
    await refusedFile(page, sealed.name, sealed.bytes, 'STREAM_CONTEXT_MISMATCH');
    t.is(requests(gw, 'POST', '/api/crypto/datakey/open'), asked, 'refused before any request');
    t.is(await page.locator('#crypto-file-download').count(), 0);

    await refusedFile(page, 'notes.kgst', Buffer.from('not a stream'), 'STREAM_MALFORMED');
    t.is(await page.locator('#crypto-file-download').count(), 0);
  });
});
