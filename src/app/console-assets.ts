import { readFile } from 'node:fs/promises';
import type { ConsoleAsset, ConsoleAssets } from '../transports/koa/console/console.js';

/** The console's files and their media types, as `npm run build` writes them to `dist/console/`. */
export const CONSOLE_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

/** What scripts/bundle-client.ts offers the sources (tsx): the same files, bundled on the spot. */
interface ConsoleBundler {
  consoleAssets(): Promise<Record<string, ConsoleAsset>>;
}

let loaded: Promise<ConsoleAssets> | undefined;

/**
 * The console's files, loaded once per process. The installed package (compiled, `dist/app/`) reads
 * them from `dist/console/`, where `npm run build` put them. Run from the sources (tsx: tests and
 * development, no `dist/`), they are bundled now with esbuild, as the demo page is.
 */
export function loadConsoleAssets(): Promise<ConsoleAssets> {
  loaded ??= (import.meta.url.endsWith('.ts') ? bundledFromSources() : readBuilt()).catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function readBuilt(): Promise<ConsoleAssets> {
  const dir = new URL('../console/', import.meta.url);
  const entries = await Promise.all(
    Object.entries(CONSOLE_FILES).map(async ([name, type]) => [name, { type, body: await readFile(new URL(name, dir), 'utf8') }] as const),
  );
  return new Map(entries);
}

async function bundledFromSources(): Promise<ConsoleAssets> {
  // A computed specifier: the compiled package never reaches this line, and has no scripts/ to load.
  const bundler = (await import(new URL('../../scripts/bundle-client.ts', import.meta.url).href)) as ConsoleBundler;
  return new Map(Object.entries(await bundler.consoleAssets()));
}
