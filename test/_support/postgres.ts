import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** A PostgreSQL server for tests: its URL, or why there is none. */
export interface TestPostgres {
  readonly url: string | undefined;
  /** Set when `url` is not: a line saying why PostgreSQL tests are skipped. */
  readonly reason: string | undefined;
  /** Stops the server this process started (a server given by TE_TEST_POSTGRES_URL is left alone). */
  stop(): Promise<void>;
  /**
   * Restarts the server this process started, on the same port, dropping every connection (a fault
   * test); undefined for a server given by TE_TEST_POSTGRES_URL.
   */
  readonly restart?: () => void;
}

export interface TestPostgresOptions {
  /** Keep fsync on (benchmarks); tests turn it off for speed. */
  readonly durable?: boolean;
}

/**
 * TE_TEST_POSTGRES_URL when set (used as is: a server named there that does not answer fails the tests);
 * otherwise a throwaway cluster made with the Debian binaries (/usr/lib/postgresql/<version>/bin) in a
 * temporary directory, on a free loopback port, its unix socket in that directory, run as the `postgres`
 * user when this process is root, its data directory a copy of one `initdb` made once (`clusterTemplate`).
 * Synchronous, because ava wants tests declared synchronously and whether they are skipped depends on this. Never throws: a server that cannot be had is a `reason`.
 */
export function startTestPostgres(options: TestPostgresOptions = {}): TestPostgres {
  const given = process.env.TE_TEST_POSTGRES_URL?.trim();
  if (given) return { url: given, reason: undefined, stop: async () => {} };
  const bin = findBinaries();
  if (bin === undefined) return none('no PostgreSQL server binaries in /usr/lib/postgresql/*/bin and TE_TEST_POSTGRES_URL is not set');
  const runAs = serverUser();
  if (typeof runAs === 'string') return none(runAs);
  const dir = mkdtempSync(join(tmpdir(), 'keygate-pg-'));
  try {
    if (runAs) chownSync(dir, runAs.uid, runAs.gid);
    const data = join(dir, 'data');
    copyTree(clusterTemplate(runAs, bin), data);
    const port = startOnSomePort(runAs, bin, data, dir, options);
    const stopNow = () => {
      spawnSync(...command(runAs, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']), { cwd: dir, stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    };
    // Should the test process end without calling stop, the server goes with it.
    process.once('exit', stopNow);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      reason: undefined,
      restart: () =>
        asServerUser(
          runAs,
          join(bin, 'pg_ctl'),
          ['-D', data, '-l', join(dir, 'server.log'), '-m', 'fast', '-w', '-t', '30', 'restart'],
          dir,
        ),
      async stop() {
        process.removeListener('exit', stopNow);
        stopNow();
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return none(`a throwaway PostgreSQL cluster did not start: ${firstLine(error)}`);
  }
}

/** Starts the server on a random high loopback port, trying another when that one is taken. */
function startOnSomePort(runAs: { uid: number } | undefined, bin: string, data: string, dir: string, options: TestPostgresOptions): number {
  for (let attempt = 1; ; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses='127.0.0.1'",
      ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off']),
    ];
    try {
      asServerUser(
        runAs,
        join(bin, 'pg_ctl'),
        ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', settings.join(' '), 'start'],
        dir,
      );
      return port;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

const INITDB = ['-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'];

/**
 * A data directory as `initdb` makes it, made once per PostgreSQL version and user: each cluster
 * starts from a copy of it, which costs a fraction of running initdb again for every test file.
 * Made in a scratch directory and renamed into place, so test processes starting at once never see
 * half of one.
 */
function clusterTemplate(runAs: { uid: number; gid: number } | undefined, bin: string): string {
  const home = join(
    tmpdir(),
    `keygate-pg-template-${createHash('sha256')
      .update(`${bin} ${INITDB.join(' ')}`)
      .digest('hex')
      .slice(0, 16)}`,
  );
  const template = join(home, 'data');
  if (existsSync(template)) return template;
  const scratch = mkdtempSync(`${home}.`);
  try {
    if (runAs) chownSync(scratch, runAs.uid, runAs.gid);
    asServerUser(runAs, join(bin, 'initdb'), ['-D', join(scratch, 'data'), ...INITDB], scratch);
    try {
      renameSync(scratch, home);
    } catch (error) {
      if (!existsSync(template)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return template;
}

/** `cp -a`: the copy keeps the owner (the `postgres` user) and the modes PostgreSQL insists on. */
function copyTree(from: string, to: string): void {
  const copied = spawnSync('cp', ['-a', from, to], { encoding: 'utf8' });
  if (copied.error) throw copied.error;
  if (copied.status !== 0) throw new Error(`cp failed: ${copied.stderr.trim()}`);
}

function none(reason: string): TestPostgres {
  return { url: undefined, reason, stop: async () => {} };
}

function findBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')));
}

/** undefined: run as this process; an id pair: run as `postgres` (PostgreSQL refuses to run as root). */
function serverUser(): { uid: number; gid: number } | undefined | string {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) return 'running as root and there is no "postgres" user to run a server as';
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The command line that runs `file` as this process, or as `postgres` through runuser (else su). */
function command(runAs: { uid: number } | undefined, file: string, args: string[]): [string, string[]] {
  if (!runAs) return [file, args];
  if (hasRunuser()) return ['runuser', ['-u', 'postgres', '--', file, ...args]];
  const quoted = [file, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  return ['su', ['postgres', '-s', '/bin/sh', '-c', quoted]];
}

let runuser: boolean | undefined;
function hasRunuser(): boolean {
  runuser ??= spawnSync('runuser', ['--version'], { stdio: 'ignore' }).error === undefined;
  return runuser;
}

function asServerUser(runAs: { uid: number } | undefined, file: string, args: string[], cwd: string): void {
  const [program, programArgs] = command(runAs, file, args);
  const result = spawnSync(program, programArgs, { cwd, timeout: 60_000, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${file.split('/').pop()} failed: ${(result.stderr || result.stdout).trim()}`);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim().split('\n')[0] ?? 'unknown error';
}
