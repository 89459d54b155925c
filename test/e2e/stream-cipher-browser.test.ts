import test from 'ava';
import { withChromium } from '../_support/browser.js';
import { clientPage, startBrowserGateway } from '../_support/browser-gateway.js';
import { PASSWORDS } from '../_support/gateway.js';

/**
 * docs/spec.md §4.5a (Streams) in Debian's chromium, headless: the browser bundle of keygate/client,
 * served on the gateway's own origin (so no CORS is involved), encrypts and decrypts 50 MB in the page
 * with the page's WebCrypto, the same code Node runs.
 */

interface PageOutcome {
  readonly plaintextSha256: string;
  readonly openedSha256: string;
  readonly plaintextLength: number;
  readonly openedLength: number;
  readonly sealedLength: number;
  readonly headerLength: number;
}

await withChromium('stream browser tests', (browser) => {
  test('50 MB encrypted and decrypted in the page come back with the same SHA-256', async (t) => {
    const gw = await startBrowserGateway(t, []);
    const page = await clientPage(t, browser, gw, 'stream-test');

    const outcome: PageOutcome = await page.evaluate(roundTripInPage, { password: PASSWORDS.alice, size: 50 * 1024 * 1024 });

    const segments = Math.ceil(outcome.plaintextLength / (256 * 1024));
    t.is(outcome.plaintextLength, 50 * 1024 * 1024);
    t.is(outcome.sealedLength, outcome.headerLength + outcome.plaintextLength + 16 * segments);
    t.is(outcome.openedLength, outcome.plaintextLength);
    t.is(outcome.openedSha256, outcome.plaintextSha256);
    const asked = gw.seen
      .filter((request) => request.path.startsWith('/api/crypto/datakey'))
      .map((request) => `${request.path} ${request.status}`);
    t.deepEqual(asked, ['/api/crypto/datakey 200', '/api/crypto/datakey/open 200'], 'one data-key request per stream, each way');
  });
});

/** Runs in the page: signs in, makes a key, and streams 50 MB through encryptStream and back through decryptStream. */
async function roundTripInPage({ password, size }: { password: string; size: number }): Promise<PageOutcome> {
  const { KeygateClient, encryptStream, decryptStream } = (window as unknown as { keygate: typeof import('../../src/client/index.js') })
    .keygate;
  const session = await new KeygateClient({ baseUrl: location.origin }).login('alice', password);
  const { ttag } = await session.createKey({ keyLen: 32 });
  const plaintext = new Uint8Array(size);
  for (let offset = 0; offset < size; offset += 65_536) crypto.getRandomValues(plaintext.subarray(offset, offset + 65_536));
  const chunksOf = (bytes: Uint8Array, chunk: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += chunk) controller.enqueue(bytes.subarray(offset, offset + chunk));
        controller.close();
      },
    });
  const gather = async (stream: ReadableStream<Uint8Array>) => {
    const parts: Uint8Array[] = [];
    await stream.pipeTo(new WritableStream({ write: (part) => void parts.push(part) }));
    const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      whole.set(part, at);
      at += part.length;
    }
    return whole;
  };
  const hex = async (bytes: Uint8Array) =>
    Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)), (byte) =>
      byte.toString(16).padStart(2, '0'),
    ).join('');
  const sealed = await gather(chunksOf(plaintext, 1 << 20).pipeThrough(encryptStream(session, ttag)));
  const opened = await gather(chunksOf(sealed, 1_000_003).pipeThrough(decryptStream(session, { ttag })));
  return {
    plaintextSha256: await hex(plaintext),
    openedSha256: await hex(opened),
    plaintextLength: plaintext.length,
    openedLength: opened.length,
    sealedLength: sealed.length,
    headerLength: (sealed[5]! << 8) | sealed[6]!,
  };
}
