#!/usr/bin/env node
// Runs one shell command line (npm test's typecheck, lint and tests) and prints its wall time at the
// end, passing its exit status on: the whole suite's time is a figure to keep an eye on (README.md, "Tests").
import { spawnSync } from 'node:child_process';

const [label, line, ...extra] = process.argv.slice(2);
if (!label || !line) {
  process.stderr.write('usage: node scripts/timed.mjs <label> "<command line>" [arguments for its last command]\n');
  process.exit(2);
}
// Arguments after npm's `--` go to the last command of the line (ava), as they did before.
const quoted = extra.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`);
const command = [line, ...quoted].join(' ');
const began = process.hrtime.bigint();
const result = spawnSync(command, { shell: true, stdio: 'inherit' });
const seconds = Number(process.hrtime.bigint() - began) / 1e9;
const minutes = Math.floor(seconds / 60);
process.stdout.write(`\n${label} took ${minutes} min ${(seconds - minutes * 60).toFixed(1)} s (wall time)\n`);
process.exit(result.status ?? 1);
