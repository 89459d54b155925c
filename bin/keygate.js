#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm ci` and `npm pack` run as `prepare`).
try {
  await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
  process.stderr.write('keygate: dist/ is missing: run `npm run build` (npm ci and npm install run it as prepare)\n');
  process.exit(1);
}
