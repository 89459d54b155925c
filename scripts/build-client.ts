import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser, CLIENT_ENTRY, demoAssets } from './bundle-client.js';

/**
 * After tsc: the browser bundle of keygate/client (one ES module, no imports) and the demo page
 * as static files. The page's gateway URL comes from `?gateway=` when served this way.
 */
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

await mkdir(`${DIST}client`, { recursive: true });
await writeFile(`${DIST}client/keygate-client.browser.js`, await bundleForBrowser(CLIENT_ENTRY, { minify: true, sourcemap: false }));
await mkdir(`${DIST}demo`, { recursive: true });
for (const [path, asset] of Object.entries(await demoAssets(''))) await writeFile(`${DIST}demo${path}`, asset.body);
process.stdout.write(`wrote ${DIST}client/keygate-client.browser.js and ${DIST}demo/\n`);
