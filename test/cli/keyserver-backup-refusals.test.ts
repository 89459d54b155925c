import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { untilKillAll } from '../_support/child-processes.js';
import { runKeyserverCli } from '../_support/keyserver-cli.js';
import { killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { scratchDir } from '../_support/scratch-dirs.js';

test.after.always(killAllDaemons);

const dir = scratchDir('keygate-backup-');
const keyFile = join(dir, 'master.key');
writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });

/** A store the daemon made (its bootstrap users), stopped, and one backup of it. */
async function makeStore(name: string): Promise<string> {
  const data = join(dir, name, 'ks.db');
  const daemon = await spawnDaemon(untilKillAll, ['--data', data, '--port', '0', '--master-key-file', keyFile]);
  await daemon.stop();
  return data;
}

let prepared: Promise<{ data: string; backup: string; bytes: Buffer; keyId: string }> | undefined;
function source() {
  prepared ??= (async () => {
    const data = await makeStore('source');
    const backup = join(dir, 'source.backup');
    const taken = await runKeyserverCli(['backup', '--out', backup, '--data', data, '--master-key-file', keyFile, '--json']);
    if (taken.status !== 0) throw new Error(taken.stderr);
    return { data, backup, bytes: readFileSync(backup), keyId: JSON.parse(taken.stdout).masterKeyIds[0] as string };
  })();
  return prepared;
}

/** A restore of `bytes` into a new store path: answers the run and whether the store (or a key file) appeared. */
async function restoreInto(name: string, bytes: Buffer, env: Record<string, string> = {}, args = ['--master-key-file', keyFile]) {
  const file = join(dir, `${name}.backup`);
  writeFileSync(file, bytes);
  mkdirSync(join(dir, name), { recursive: true });
  const data = join(dir, name, 'ks.db');
  const run = await runKeyserverCli(['restore', '--in', file, '--data', data, ...args], env);
  return { ...run, file, wrote: existsSync(data) || existsSync(join(dir, name, 'ks.master.key')) };
}

test('a truncated backup is refused with one line, and nothing is written', async (t) => {
  const { bytes } = await source();
  const cuts = {
    halfway: bytes.subarray(0, Math.floor(bytes.length / 2)),
    'at a line end': bytes.subarray(0, bytes.lastIndexOf(0x0a, bytes.length - 2) + 1),
  };
  for (const [how, cut] of Object.entries(cuts)) {
    const run = await restoreInto(`cut-${how.replace(/ /g, '-')}`, cut);
    t.is(run.status, 1, how);
    t.is(
      run.stderr,
      `keygate: restore: ${run.file}: truncated, or not a keygate key-server backup: it does not end with its authentication line\n`,
      how,
    );
    t.false(run.wrote, how);
  }
});

test('a backup with one byte flipped is refused with one line, and nothing is written', async (t) => {
  const { bytes } = await source();
  for (const at of [Math.floor(bytes.length / 2), bytes.indexOf('"createdAt"') + 16]) {
    const flipped = Buffer.from(bytes);
    flipped[at]! ^= 0x01;
    const run = await restoreInto(`flipped-${at}`, flipped);
    t.is(run.status, 1);
    t.is(
      run.stderr,
      `keygate: restore: ${run.file}: altered: its authentication code does not match its content (a byte changed, or part of it cut)\n`,
    );
    t.false(run.wrote);
  }
});

test('a backup restored without its master key is refused with a line naming the key id, and nothing is written', async (t) => {
  const { bytes, keyId } = await source();
  const other = { TE_KEYSERVER_MASTER_KEY: randomBytes(32).toString('base64') };
  for (const [how, env] of [
    ['no key given', {}],
    ['another key given', other],
  ] as const) {
    const run = await restoreInto(`no-key-${how.replace(/ /g, '-')}`, bytes, env, []);
    t.is(run.status, 1, how);
    t.is(
      run.stderr,
      `keygate: restore: ${run.file}: sealed under master key ${keyId}, which was not given (TE_KEYSERVER_MASTER_KEY, --master-key-file, or the key file beside the data)\n`,
      how,
    );
    t.false(run.wrote, how);
  }
});

test('a restore into a store a key server holds, or that is not empty, is refused, and nothing is written', async (t) => {
  const { backup } = await source();
  const target = await makeStore('occupied');
  const rows = () => {
    const db = new Database(target, { readonly: true });
    try {
      return ['principals', 'keys', 'settings', 'counters'].map((table) => db.prepare(`SELECT count(*) AS n FROM ${table}`).get());
    } finally {
      db.close();
    }
  };
  const held = rows();
  const serving = await spawnDaemon(t, ['--data', target, '--port', '0', '--master-key-file', keyFile]);
  const refused = await runKeyserverCli(['restore', '--in', backup, '--data', target, '--master-key-file', keyFile]);
  t.is(refused.status, 1);
  t.regex(
    refused.stderr,
    new RegExp(`^keygate: restore: \\S+ks\\.db is held by pid ${serving.child.pid} on host .+; one process writes a store at a time\n$`),
  );
  await serving.stop();
  const run = await runKeyserverCli(['restore', '--in', backup, '--data', target, '--master-key-file', keyFile]);
  t.is(run.status, 1);
  t.regex(run.stderr, /^keygate: restore: the store is not empty \(it holds 2 principals, 1 settings\): restore into a new store\n$/);
  t.deepEqual(rows(), held);
});

test('a backup never replaces an existing file unless --force, and is refused without a master key', async (t) => {
  const { data, backup, bytes } = await source();
  const again = await runKeyserverCli(['backup', '--out', backup, '--data', data, '--master-key-file', keyFile]);
  t.is(again.status, 1);
  t.is(again.stderr, `keygate: backup: ${backup}: exists (--force replaces it)\n`);
  t.deepEqual(readFileSync(backup), bytes);
  const forced = await runKeyserverCli(['backup', '--out', backup, '--data', data, '--master-key-file', keyFile, '--force']);
  t.is(forced.status, 0, forced.stderr);
  t.regex(
    forced.stdout,
    /^keygate keyserver: backup written file=\S+ store=\S+ created=\S+ master-keys=[0-9a-f]{16} rows=counters:1,settings:1,roles:0,principals:2,/,
  );
  t.notDeepEqual(readFileSync(backup), bytes);

  const keyless = await runKeyserverCli(['backup', '--out', join(dir, 'keyless.backup'), '--data', data]);
  t.is(keyless.status, 1);
  t.is(
    keyless.stderr,
    'keygate: backup: no master key: give TE_KEYSERVER_MASTER_KEY or --master-key-file (the key the store is sealed under)\n',
  );
  const wrongKey = await runKeyserverCli(['backup', '--out', join(dir, 'wrong.backup'), '--data', data], {
    TE_KEYSERVER_MASTER_KEY: randomBytes(32).toString('base64'),
  });
  t.is(wrongKey.status, 1);
  t.regex(wrongKey.stderr, /^keygate: backup: \S+ks\.db: sealed under master key [0-9a-f]{16}, which was not given\n$/);
  t.false(existsSync(join(dir, 'keyless.backup')) || existsSync(join(dir, 'wrong.backup')));
});

test('--help prints the usage of both; a bad command line is one line and exit 2, as JSON with --json', async (t) => {
  for (const action of ['backup', 'restore']) {
    const help = await runKeyserverCli([action, '--help']);
    t.is(help.status, 0);
    t.regex(help.stdout, /^Usage: keygate keyserver backup --out FILE/);
  }
  const cases = [
    { args: ['backup'], line: '--out FILE is required' },
    { args: ['restore', '--in', 'x', '--data', 'a', '--postgres', 'postgres://h/db'], line: '--data and --postgres: give one of the two' },
    { args: ['backup', '--out', 'x', '--bogus', '--json'], line: 'unknown option --bogus' },
  ];
  for (const { args, line } of cases) {
    const run = await runKeyserverCli(args);
    const detail = `${line} (run "keygate keyserver ${args[0]} --help" for the usage)`;
    t.is(run.status, 2, args.join(' '));
    t.is(run.stderr, args.includes('--json') ? `${JSON.stringify({ error: { detail } })}\n` : `keygate: ${args[0]}: ${detail}\n`);
  }
});
