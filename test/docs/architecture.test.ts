import { existsSync, readdirSync, readFileSync } from 'node:fs';
import test from 'ava';

/**
 * docs/architecture.md is kept true to the tree by two checks:
 * (a) every path it names exists: a backticked span, or a word of a fenced block, that starts with
 *     `src/`, `test/`, `docs/`, `bench/` or `scripts/` is a plain path (no placeholder, no wildcard)
 *     to a file or folder of the repository, as written or with its extension left off (`.ts`,
 *     `.tsx`, `.js`, `.mjs`, `.cjs`, `.json`, `.md`); a span or word that is a file name alone
 *     (`daemon-frames.ts`) is the name of some file of the repository;
 * (b) every folder under `src` holding a .ts or .tsx file (at any depth) is named by itself, as one
 *     such path (`src/keyserver/store` or `src/keyserver/store/`).
 */
const root = new URL('../../', import.meta.url);
const DOCUMENT = 'docs/architecture.md';
const architecture = readFileSync(new URL(DOCUMENT, root), 'utf8');

/** The folders a path in the document may start with: the repository's own trees. */
const ROOTS = ['src', 'test', 'docs', 'bench', 'scripts'];
const STARTS_WITH_ROOT = new RegExp(`^(?:${ROOTS.join('|')})/`);
/** What a path is made of: no placeholder (`<port>`), no wildcard (`tls-*`), no space. */
const PLAIN_PATH = /^[A-Za-z0-9._/-]+$/;
/** Extensions a path may leave out: `src/app/config` names `src/app/config.ts`. */
const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.md'];

/** A file named without its folder (`daemon-frames.ts`, `biome.json`). */
const FILE_NAME = /^[A-Za-z0-9_.-]+\.(?:ts|tsx|js|mjs|cjs|json|md)$/;
const FENCED = /^```[^\n]*\n([\s\S]*?)^```/gm;

/**
 * What a Markdown text names: the backticked spans outside fenced blocks, and the words inside them
 * (each word's trailing `.`, `,`, `;`, `:` or `)` left off).
 */
function namedTokens(markdown: string): string[] {
  const words = [...markdown.matchAll(FENCED)].flatMap(([, block]) => block!.split(/\s+/).map((word) => word.replace(/[.,;:)]+$/, '')));
  const spans = [...markdown.replace(FENCED, '').matchAll(/`([^`\n]+)`/g)].map(([, span]) => span!);
  return [...words, ...spans];
}

/** The paths a Markdown text names: tokens that start with `src/`, `test/`, `docs/`, `bench/` or `scripts/`. */
function namedPaths(markdown: string): string[] {
  return namedTokens(markdown).filter((token) => STARTS_WITH_ROOT.test(token));
}

/** The files a Markdown text names by their name alone: a token that is a file name with its extension. */
function namedFiles(markdown: string): string[] {
  return namedTokens(markdown).filter((token) => FILE_NAME.test(token));
}

/** The name of every file at the repository's top and in its trees. */
function repositoryFileNames(): Set<string> {
  const names = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  for (const folder of [...ROOTS, 'bin']) {
    for (const name of readdirSync(new URL(folder, root), { recursive: true }) as string[]) names.push(name.split('/').pop()!);
  }
  return new Set(names);
}

/** True when `path` is a file or folder of the repository, as written or with one of EXTENSIONS. */
function existsInRepository(path: string): boolean {
  return [path, ...EXTENSIONS.map((extension) => `${path}${extension}`)].some((candidate) => existsSync(new URL(candidate, root)));
}

/**
 * Each named path that is no plain path or names nothing in the repository, then each file named by
 * its name alone that no file of the repository is called (check a).
 */
function unresolvedPaths(markdown: string): string[] {
  const files = repositoryFileNames();
  const paths = namedPaths(markdown).filter((path) => !PLAIN_PATH.test(path) || !existsInRepository(path.replace(/\/$/, '')));
  return [...paths, ...namedFiles(markdown).filter((name) => !files.has(name))];
}

/** Every folder under `src` holding a .ts or .tsx file, at any depth below it (`src/transports` too). */
function sourceFolders(): string[] {
  const files = (readdirSync(new URL('src', root), { recursive: true }) as string[]).filter((name) => /\.tsx?$/.test(name));
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth += 1) folders.add(`src/${parts.slice(0, depth).join('/')}`);
  }
  return [...folders].sort();
}

/**
 * Each folder the document does not name (check b). A folder is named when one of the document's
 * paths is exactly the folder, with or without a trailing `/`; a file inside it does not name it.
 */
function undescribedFolders(markdown: string, folders: readonly string[]): string[] {
  const named = new Set(namedPaths(markdown).map((path) => path.replace(/\/$/, '')));
  return folders.filter((folder) => !named.has(folder));
}

test('every path docs/architecture.md names exists in the repository', (t) => {
  t.true(namedPaths(architecture).length > 100, 'the document is read as naming its paths');
  t.deepEqual(unresolvedPaths(architecture), []);
});

test('every folder under src holding TypeScript is named in docs/architecture.md', (t) => {
  t.true(sourceFolders().includes('src/keyserver/store'));
  t.deepEqual(undescribedFolders(architecture, sourceFolders()), []);
});

test('a made-up path or file name, a placeholder or a wildcard in the document is reported; a path without its extension is not', (t) => {
  const fixture = [
    'Routes live in `src/transports/koa/app.ts` and `src/app/config`; the tests in `test/docs/`; frames in `daemon-frames.ts`.',
    'Gone: `src/transports/koa/made-up-router.ts`, `docs/nowhere.md`, `src/adapters/<port>`, `src/adapters/key-server/tls-*`, `made-up-step.ts`.',
    '```',
    'HTTP -> src/transports/koa/app.ts -> src/use-cases/vanished.ts: the use case -> engine-store.port.ts, vanished-store.ts',
    '```',
  ].join('\n');
  t.deepEqual(unresolvedPaths(fixture), [
    'src/use-cases/vanished.ts',
    'src/transports/koa/made-up-router.ts',
    'docs/nowhere.md',
    'src/adapters/<port>',
    'src/adapters/key-server/tls-*',
    'vanished-store.ts',
    'made-up-step.ts',
  ]);
});

test('a folder under src the document does not name is reported, and a file inside it does not name it', (t) => {
  const fixture = 'The stores: `src/keyserver/store/sqlite-engine-store.ts`. The engine: `src/keyserver/engine/`. The wire: `src/wire`.';
  const folders = ['src/keyserver/engine', 'src/keyserver/store', 'src/made-up', 'src/wire'];
  t.deepEqual(undescribedFolders(fixture, folders), ['src/keyserver/store', 'src/made-up']);
});
