#!/usr/bin/env node
// The `keygate` CLI run from its TypeScript sources through tsx, for tests: they exercise the code as
// it is in the worktree, never a stale dist/. The published bin (bin/keygate.js) runs dist/.
import { register } from 'tsx/esm/api';

register();
await import('../../src/cli/main.ts');
