// The TypeScript loader of the test workers (`--import=./test/_support/typescript-loader.js` in ava's
// settings): the worktree's .ts and .tsx files load as JavaScript compiled by esbuild, each kept on disk
// by a hash of its text (typescript-hooks.js). It does what the suite needed of tsx and nothing more:
// tsx resolves every import of every module, node_modules' included, through a general resolver, and
// that cost a test worker that starts a gateway about half a second of CPU out of 1.5 (README.md, "Tests").
// The files keep their own URLs (import.meta.url is the .ts file's), and stack traces name their lines.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./typescript-hooks.js', import.meta.url);
