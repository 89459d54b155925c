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

/** The one way the client reaches Node: its AES-GCM for a stream's segments, where the runtime has it (src/client/segment-aead.ts). */
const NODE_CIPHER = "runtime.process?.getBuiltinModule?.('crypto')";

test("the client's sources use WebCrypto and fetch only: no node: import, Buffer or process, but Node's cipher for segments", async (t) => {
  const files = (await readdir(CLIENT_DIR, { recursive: true })).filter((name) => name.endsWith('.ts'));
  t.true(files.length > 5);
  const reachingNode: string[] = [];
  for (const file of files) {
    const source = await readFile(`${CLIENT_DIR}${file}`, 'utf8');
    if (source.includes(NODE_CIPHER)) reachingNode.push(file);
    t.false(
      /from ['"]node:|import\(['"]node:|\bBuffer\b|\bprocess\.|getBuiltinModule(\?\.)?\(/.test(source.replaceAll(NODE_CIPHER, '')),
      file,
    );
    t.false(/credentials:\s*['"](include|same-origin)/.test(source), `${file}: credentials other than omit`);
    t.false(/document\.cookie/.test(source), `${file}: cookies`);
  }
  t.deepEqual(reachingNode, ['segment-aead.ts']);
});
