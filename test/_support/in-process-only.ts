import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/**
 * Loaded first by `npm run test:unit` (ava.unit.config.js): a test of the fast tier that starts a
 * process or opens a socket fails, naming what it tried, so the tier stays what it says (no network,
 * no child process) as tests are added to its folders.
 */
function refuse(what: string): () => never {
  return () => {
    throw new Error(
      `${what} in a unit test: the fast tier runs in process, with no network and no child process (move the test out of ava.unit.config.js's files)`,
    );
  };
}

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = refuse(`child_process.${name}`);
}
net.Server.prototype.listen = refuse('listening on a socket');
net.Socket.prototype.connect = refuse('connecting a socket');
syncBuiltinESMExports();
