// The worktree's sources compiled to JavaScript for the test suite's `keygate` processes
// (keygate-from-source.js). A process loading the TypeScript through tsx pays for the loader and its
// hooks at every start, and the suite starts hundreds of them; this copy is compiled once per version
// of the sources and every later process starts on plain JavaScript, as an installed keygate does.
//
// The copy is keyed by a hash of everything that goes into it (src/, package.json and its lock,
// tsconfig.json, the console's bundler), so an edit makes the next process compile a fresh one: tests
// never run a stale build, and dist/ (`npm run build`) is never read. It is laid out as the package is (dist/ beside
// package.json and node_modules), so what the code finds next to itself (its version, the console's
// files in dist/console/) is where the installed package has it.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/bundle-client.ts', 'test/_support/compiled-sources.js'];
/** Browser code, bundled into dist/console/ instead (as tsconfig.build.json leaves it out). */
const BROWSER_ONLY = ['src/console/', 'src/client/demo/'];

/** Every file under `dir`, sorted, as paths relative to the worktree. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

function versionOf(sources) {
  const hash = createHash('sha256').update(ROOT);
  for (const file of [...INPUTS, ...sources]) hash.update(`\0${file}\0`).update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 20);
}

/** The URL of the compiled `src/cli/main.ts` for the sources as they are now; compiles them when needed. */
export async function compiledCli() {
  const sources = filesUnder(SRC);
  const home = join(tmpdir(), `keygate-compiled-${versionOf(sources)}`);
  if (existsSync(home)) markUsed(home);
  else await compile(home, sources);
  return pathToFileURL(join(home, 'dist', 'cli', 'main.js')).href;
}

/**
 * Compiles into a directory of this process's own, then renames it into place: processes started
 * at once may all compile, one rename wins, and no process ever sees a half-written copy.
 */
async function compile(home, sources) {
  const scratch = `${home}.${process.pid}-${Date.now()}`;
  try {
    mkdirSync(scratch, { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(scratch, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    const { build } = await import('esbuild');
    await build({
      entryPoints: sources
        .filter((file) => file.endsWith('.ts') && !BROWSER_ONLY.some((folder) => file.startsWith(folder)))
        .map((file) => join(ROOT, file)),
      outbase: SRC,
      outdir: join(scratch, 'dist'),
      format: 'esm',
      platform: 'node',
      target: 'node20',
      tsconfigRaw: readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'),
      logLevel: 'silent',
    });
    await writeConsoleAssets(join(scratch, 'dist', 'console'));
    writeFileSync(join(scratch, 'worktree'), ROOT);
    try {
      renameSync(scratch, home);
    } catch (error) {
      if (!existsSync(home)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  removeOldCopies(home);
}

/** Dates the copy's use, so that `removeOldCopies` leaves a copy a test run is using. */
function markUsed(home) {
  const now = new Date();
  try {
    utimesSync(home, now, now);
  } catch {
    // Owned by another user, or just removed: the copy is still read as it is.
  }
}

/** Copies of this worktree's earlier sources unused for an hour: a session of edits would leave one per version. */
function removeOldCopies(home) {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(tmpdir())) {
    const copy = join(tmpdir(), name);
    if (!name.startsWith('keygate-compiled-') || copy === home) continue;
    try {
      if (readFileSync(join(copy, 'worktree'), 'utf8') === ROOT && statSync(copy).mtimeMs < hourAgo)
        rmSync(copy, { recursive: true, force: true });
    } catch {
      // Another process's copy in the making, or gone already.
    }
  }
}

/** The operator console's files, as `npm run build` writes them to dist/console/ (scripts/build-client.ts). */
async function writeConsoleAssets(dir) {
  const { register } = await import('tsx/esm/api');
  const unregister = register();
  try {
    const { consoleAssets } = await import(pathToFileURL(join(ROOT, 'scripts', 'bundle-client.ts')).href);
    mkdirSync(dir, { recursive: true });
    for (const [name, asset] of Object.entries(await consoleAssets())) writeFileSync(join(dir, name), asset.body);
  } finally {
    await unregister();
  }
}
