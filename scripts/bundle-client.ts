import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CONSOLE_FILES } from '../src/app/console-assets.js';

const SOURCE = fileURLToPath(new URL('../src/client/', import.meta.url));

/** The browser client as one ES module (`keygate/client` for a page without a bundler of its own). */
export const CLIENT_ENTRY = `${SOURCE}index.ts`;
/** The demo page's script; it bundles the client in. */
export const DEMO_ENTRY = `${SOURCE}demo/demo.ts`;
const CONSOLE_SOURCE = fileURLToPath(new URL('../src/console/', import.meta.url));
/** The operator console's script (Preact; it bundles the client in). */
export const CONSOLE_ENTRY = `${CONSOLE_SOURCE}main.tsx`;

/**
 * Bundles a browser entry point with esbuild: ES2022 modules for the browser platform, so a Node
 * import anywhere in the client fails the build instead of reaching a page.
 */
export async function bundleForBrowser(entry: string, options: { minify?: boolean; sourcemap?: boolean } = {}): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    write: false,
    minify: options.minify ?? false,
    sourcemap: options.sourcemap === false ? false : 'inline',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'silent',
    jsx: 'automatic',
    jsxImportSource: 'preact',
  });
  return result.outputFiles[0]!.text;
}

/** The demo page's static files, `index.html` with the default gateway URL written in. */
export async function demoAssets(gatewayUrl: string): Promise<Record<string, { type: string; body: string }>> {
  const html = await readFile(`${SOURCE}demo/index.html`, 'utf8');
  const escaped = gatewayUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return {
    '/index.html': {
      type: 'text/html; charset=utf-8',
      body: html.replace('name="keygate-gateway" content=""', `name="keygate-gateway" content="${escaped}"`),
    },
    '/demo.css': { type: 'text/css; charset=utf-8', body: await readFile(`${SOURCE}demo/demo.css`, 'utf8') },
    '/demo.js': { type: 'text/javascript; charset=utf-8', body: await bundleForBrowser(DEMO_ENTRY) },
  };
}

/**
 * The operator console's static files (served by the gateway at `/console/`): the page, its style,
 * its icon, and its script with Preact and the client bundled in, minified without a source map.
 */
export async function consoleAssets(): Promise<Record<string, { type: string; body: string }>> {
  const bodies: Record<string, string> = {
    'index.html': await readFile(`${CONSOLE_SOURCE}index.html`, 'utf8'),
    'console.css': await readFile(`${CONSOLE_SOURCE}console.css`, 'utf8'),
    'favicon.svg': await readFile(`${CONSOLE_SOURCE}favicon.svg`, 'utf8'),
    'console.js': await bundleForBrowser(CONSOLE_ENTRY, { minify: true, sourcemap: false }),
  };
  return Object.fromEntries(Object.entries(CONSOLE_FILES).map(([name, type]) => [name, { type, body: bodies[name]! }]));
}
