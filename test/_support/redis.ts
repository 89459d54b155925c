import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createConnection, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { scratchDir } from './scratch-dirs.js';

/** A throwaway `redis-server` on a loopback port, owned by one test file. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** SIGTERM; the server saves its data to its directory first (`--shutdown-on-sigterm save`). */
  stop(): Promise<void>;
  /** SIGKILL: gone at once, nothing saved. */
  kill(): Promise<void>;
  /** SIGSTOP: the server stays connected but answers nothing (a hung Redis), until `resume`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Starts again on the same port and directory, so what `stop` saved is loaded. */
  restart(): Promise<void>;
}

/** Where the Redis tests get their Redis, or why they cannot run. */
export type TestRedis = { readonly url: string; close(): Promise<void> } | { readonly skipped: string };

const running = new Set<ChildProcess>();
// A safety net: whatever ends the test process (a timeout included) takes its children with it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** True once the server on `port` answers PING with PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => (socket.destroy(), answer(ok));
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--shutdown-on-sigterm',
    'save',
  ];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before answering:\n${output}`)));
  });
  failed.catch(() => undefined);
  let gaveUp = false;
  const ready = (async () => {
    for (let attempt = 0; attempt < 100 && !gaveUp; attempt++) {
      if (await pings(port)) return;
      await sleep(50);
    }
    throw new Error(`redis-server did not answer PING within 5 s:\n${output}`);
  })();
  ready.catch(() => undefined);
  try {
    await Promise.race([ready, failed]);
  } catch (error) {
    gaveUp = true;
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/** Spawns `redis-server --port N --bind 127.0.0.1 --save '' --appendonly no` and waits for PING. */
export async function spawnRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = scratchDir('keygate-redis-');
  let child = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async pause() {
      child.kill('SIGSTOP');
    },
    async resume() {
      child.kill('SIGCONT');
    },
    async restart() {
      child = await launch(port, dir);
    },
  };
}

/** Kills every redis-server this test file started (for `test.after.always`). */
export async function killAllRedis(): Promise<void> {
  await Promise.all([...running].map((child) => (child.kill('SIGKILL'), exited(child))));
}

/**
 * The Redis for contract tests: TE_TEST_REDIS_URL when set, else a server of our own. When neither
 * can be had, says why (the caller registers a skipped test naming the reason and prints it).
 */
export async function testRedis(): Promise<TestRedis> {
  const given = process.env.TE_TEST_REDIS_URL?.trim();
  if (given) return { url: given, close: async () => undefined };
  try {
    const server = await spawnRedis();
    return { url: server.url, close: () => server.kill() };
  } catch (error) {
    return { skipped: whyNoRedis(error) };
  }
}

/** Why a redis-server could not be started, in one line (for a skipped test). */
export function whyNoRedis(error: unknown): string {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT')
    return 'redis-server is not installed (Debian package redis-server; .ci/run installs it)';
  return (error as Error).message.split('\n')[0]!;
}

/** A redis-server of the test file's own, or the reason there is none. */
export function spawnRedisOrReason(): Promise<RedisServer | string> {
  return spawnRedis().catch(whyNoRedis);
}
