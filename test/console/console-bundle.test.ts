import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { consoleAssets } from '../../scripts/bundle-client.js';

const CONSOLE_DIR = fileURLToPath(new URL('../../src/console/', import.meta.url));

test('the console bundles for the browser with no Node import, and its page loads only its own files', async (t) => {
  const assets = await consoleAssets();
  t.deepEqual(Object.keys(assets).sort(), ['console.css', 'console.js', 'favicon.svg', 'index.html']);
  t.false(/["']node:|require\(/.test(assets['console.js']!.body));
  const html = assets['index.html']!.body;
  t.deepEqual([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]).sort(), ['console.css', 'console.js', 'favicon.svg']);
});

/**
 * What the console's script may weigh, minified and gzipped as a browser fetches it: Preact, the
 * client and every screen. 17.5 kB before it managed keys; a budget, not a measure of speed. 24.2 kB
 * before the crypto tool's file streams, which bring the client's stream format (docs/spec.md §4.5a,
 * Streams) and the encryption context's rules (§4.5b item 1): 28.7 kB with them.
 */
const SCRIPT_BUDGET_GZIP_BYTES = 30_000;

test('the console script stays within its size budget', async (t) => {
  const script = (await consoleAssets())['console.js']!.body;
  const gzipped = gzipSync(script).length;
  t.log(`console.js: ${script.length} bytes minified, ${gzipped} gzipped`);
  t.true(gzipped <= SCRIPT_BUDGET_GZIP_BYTES, `${gzipped} gzipped bytes, budget ${SCRIPT_BUDGET_GZIP_BYTES}`);
});

test("the console's sources keep the session out of storage, cookies and URLs, and write no raw HTML", async (t) => {
  const files = (await readdir(CONSOLE_DIR, { recursive: true })).filter((name) => /\.tsx?$/.test(name));
  t.true(files.length > 8);
  for (const file of files) {
    const source = await readFile(`${CONSOLE_DIR}${file}`, 'utf8');
    t.false(/localStorage\s*\.|document\.cookie|indexedDB\s*\./.test(source), `${file}: persistent storage`);
    t.false(
      /dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|\beval\(|new Function/.test(source),
      `${file}: raw HTML or code`,
    );
    t.false(/history\.(push|replace)State|location\.(hash|search|href)\s*=/.test(source), `${file}: writes the URL`);
    t.false(/credentials:\s*['"](include|same-origin)/.test(source), `${file}: credentials other than omit`);
    if (file !== 'session-keeper.ts') t.false(/sessionStorage\s*\./.test(source), `${file}: sessionStorage outside session-keeper.ts`);
  }
});
