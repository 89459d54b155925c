import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { bundleForBrowser, CLIENT_ENTRY } from '../../scripts/bundle-client.js';

const CLIENT_DIR = fileURLToPath(new URL('../../src/client/', import.meta.url));

test('the client bundles for the browser platform, with no Node import left in it', async (t) => {
  const code = await bundleForBrowser(CLIENT_ENTRY, { sourcemap: false });
  t.false(/["']node:|require\(/.test(code));
  for (const name of ['KeygateClient', 'ReauthRequiredError', 'mintProof', 'unwrapExport']) t.true(code.includes(name), name);
});

test("the client's sources use WebCrypto and fetch only: no node: import, Buffer or process", async (t) => {
  const files = (await readdir(CLIENT_DIR, { recursive: true })).filter((name) => name.endsWith('.ts'));
  t.true(files.length > 5);
  for (const file of files) {
    const source = await readFile(`${CLIENT_DIR}${file}`, 'utf8');
    t.false(/from ['"]node:|\bBuffer\b|\bprocess\./.test(source), file);
    t.false(/credentials:\s*['"](include|same-origin)/.test(source), `${file}: credentials other than omit`);
    t.false(/document\.cookie/.test(source), `${file}: cookies`);
  }
});
