import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser, CLIENT_ENTRY, consoleAssets, demoAssets } from './bundle-client.js';

/**
 * After tsc: the browser bundle of keygate/client (one ES module, no imports), the demo page as
 * static files (its gateway URL comes from `?gateway=` when served this way), and the operator
 * console's files, which the installed gateway serves from `dist/console/`.
 */
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

await mkdir(`${DIST}client`, { recursive: true });
await writeFile(`${DIST}client/keygate-client.browser.js`, await bundleForBrowser(CLIENT_ENTRY, { minify: true, sourcemap: false }));
await mkdir(`${DIST}demo`, { recursive: true });
for (const [path, asset] of Object.entries(await demoAssets(''))) await writeFile(`${DIST}demo${path}`, asset.body);
await mkdir(`${DIST}console`, { recursive: true });
for (const [name, asset] of Object.entries(await consoleAssets())) await writeFile(`${DIST}console/${name}`, asset.body);
process.stdout.write(`wrote ${DIST}client/keygate-client.browser.js, ${DIST}demo/ and ${DIST}console/\n`);
