import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { certificateFingerprint, createIdentityCertificate } from '../../src/keyserver/identity/identity-certificate.js';
import { ChildProcesses, type Owner } from './child-processes.js';
import { scratchDir } from './scratch-dirs.js';

const BIN = new URL('./keygate-from-source.js', import.meta.url).pathname;
const READY = /^keygate keyserver: listening url=(\S+) port=(\d+) fingerprint=([0-9a-f]{64})$/m;
const running = new ChildProcesses();
// A safety net: whatever ends the test process (a timeout included) takes its children with it.

/** `keygate keyserver` as a separate process, as a deployment runs it. */
export interface DaemonProcess {
  readonly url: string;
  readonly port: number;
  readonly fingerprint: string;
  readonly child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, and resolves with the exit code once it is gone. */
  stop(): Promise<number | null>;
  /** SIGKILL: the process dies without closing anything. */
  kill(): Promise<void>;
}

/**
 * Starts the daemon with `args` (trusting `testClient()` unless they name the gateways it trusts) and resolves once it prints where it listens. The process is killed when
 * `owner` ends (a test's teardown), or by `killAllDaemons` for `untilKillAll`.
 */
export async function spawnDaemon(owner: Owner, args: readonly string[], env: Record<string, string> = {}): Promise<DaemonProcess> {
  const trusted = args.some((arg) => arg === '--client-ca' || arg === '--client-fingerprint');
  const trust = trusted ? [] : ['--client-fingerprint', (await testClient()).fingerprint];
  const child = spawn(process.execPath, [BIN, 'keyserver', ...args, ...trust], {
    env: { ...process.env, TE_KEYSERVER_ADMIN_PASSWORD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = running.track(child);
  owner.teardown(() => running.end(child, exited));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`daemon did not start within 45 s:\n${output}`)), 45_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = READY.exec(output);
      if (!ready) return;
      clearTimeout(timer);
      child.removeListener('exit', onEarlyExit);
      resolve({
        url: ready[1]!,
        port: Number(ready[2]),
        fingerprint: ready[3]!,
        child,
        output: () => output,
        stop: async () => (child.exitCode === null && child.signalCode === null && child.kill('SIGTERM'), exited),
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    };
    const onEarlyExit = (code: number | null) => fail(new Error(`daemon exited (${code}) before listening:\n${output}`));
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', onEarlyExit);
  });
}

/** A gateway's client certificate for mutual TLS, with its files and fingerprint. */
export interface TestClient {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certPath: string;
  readonly keyPath: string;
  readonly fingerprint: string;
}

let sharedClient: Promise<TestClient> | undefined;

/** A fresh client identity written to a scratch directory. */
export async function createTestClient(): Promise<TestClient> {
  const dir = scratchDir('keygate-client-');
  const identity = await createIdentityCertificate({ commonName: 'keygate gateway', usage: 'client' });
  const client = {
    ...identity,
    certPath: join(dir, 'client.crt'),
    keyPath: join(dir, 'client.key'),
    fingerprint: certificateFingerprint(identity.certPem),
  };
  writeFileSync(client.certPath, identity.certPem);
  writeFileSync(client.keyPath, identity.keyPem, { mode: 0o600 });
  return client;
}

/** The client identity of this test process's gateways: every daemon `spawnDaemon` starts trusts it. */
export function testClient(): Promise<TestClient> {
  sharedClient ??= createTestClient();
  return sharedClient;
}

/** Gateway configuration (in-process) or environment (a `keygate serve` process) presenting `testClient()`. */
export async function clientConfig(): Promise<{ clientCert: string; clientKey: string }> {
  const client = await testClient();
  return { clientCert: client.certPem, clientKey: client.keyPem };
}

export async function clientEnv(): Promise<Record<string, string>> {
  const client = await testClient();
  return { TE_GATEWAY_KEYSERVER_CLIENT_CERT: client.certPath, TE_GATEWAY_KEYSERVER_CLIENT_KEY: client.keyPath };
}

/** Kills every daemon a test file started and did not stop (for `test.after.always`). */
export function killAllDaemons(): Promise<void> {
  return running.killAll();
}

/** A scratch directory with a seed file and a certificate/key pair the daemon can be given. */
export async function daemonFixtures(
  seed: unknown,
): Promise<{ dir: string; seedPath: string; certPath: string; keyPath: string; certPem: string }> {
  const dir = scratchDir('keygate-daemon-');
  const identity = await createIdentityCertificate();
  const fixtures = {
    dir,
    seedPath: join(dir, 'seed.json'),
    certPath: join(dir, 'ks.crt'),
    keyPath: join(dir, 'ks.key'),
    certPem: identity.certPem,
  };
  writeFileSync(fixtures.seedPath, JSON.stringify(seed));
  writeFileSync(fixtures.certPath, identity.certPem);
  writeFileSync(fixtures.keyPath, identity.keyPem, { mode: 0o600 });
  return fixtures;
}
