#!/usr/bin/env node
// The `keygate` CLI built from the worktree's TypeScript sources, for tests: they exercise the code as
// it is in the worktree, never a stale dist/. The sources are compiled once per version of them
// (compiled-sources.js), so each of the suite's many processes starts on plain JavaScript. The
// published bin (bin/keygate.js) runs dist/.
import { compiledCli } from './compiled-sources.js';

// `npm test` (compiled-suite.js) bundles the CLI from its copy's sources before its first test and
// names it in KEYGATE_SUITE_CLI: each of its processes is spared reading and hashing every source file.
await import(process.env.KEYGATE_SUITE_CLI || (await compiledCli()));
