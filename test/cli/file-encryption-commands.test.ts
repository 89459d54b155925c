import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, openSync, readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import test from 'ava';
import { OPERATOR_COMMANDS } from '../../src/cli/commands/index.js';
import { decryptStream, KeygateClient } from '../../src/client/index.js';
import { type CliRun, startCliGateway } from '../_support/cli-gateway.js';
import { killAllGateways } from '../_support/gateway-process.js';
import { HOSTILE } from '../_support/hostile-text.js';

/**
 * `keygate datakey`, `keygate encrypt-file` and `keygate decrypt-file` (docs/spec.md §4.5a, data keys
 * and Streams) through the real binary and a gateway process. What the CLI writes is read back in this
 * process by keygate/client's decryptStream too, and every damaged stream is refused with its code and
 * leaves no output behind.
 */
const cli = await startCliGateway('files');
const { dir, keygate } = cli;
const BIN = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;
const SEGMENT = 4096;

// One admin session for the file, its id in a file for the CLI; keys are made in this process, which is cheaper than a CLI run.
const env = await cli.signInAdmin();
const api = new KeygateClient({ baseUrl: cli.url }).resume(readFileSync(env.KEYGATE_SESSION_FILE, 'utf8').trim());
test.after.always(killAllGateways);
const newKey = async () => (await api.createKey({ keyLen: 32 })).ttag;

/** `keygate args` with standard input read from `stdinFile` and standard output written to `stdoutFile`. */
function keygateThroughFiles(args: readonly string[], env: Record<string, string>, stdinFile: string, stdoutFile: string): Promise<CliRun> {
  const stdin = openSync(stdinFile, 'r');
  const stdout = openSync(stdoutFile, 'w');
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, KEYGATE_URL: cli.url, ...env },
    stdio: [stdin, stdout, 'pipe'],
    timeout: 90_000,
  });
  closeSync(stdin);
  closeSync(stdout);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? 1, stdout: '', stderr })));
}

/** Names in `dir` that begin with OUT's name: OUT itself or a staging file left beside it. */
const leftOf = (out: string) => readdirSync(dir).filter((name) => name.startsWith(out) || name.startsWith(`.${out}.`));

test('encrypt-file and decrypt-file round-trip a 5 MB file byte for byte; OUT is 0600, and decryptStream reads the stream in-process', async (t) => {
  const ttag = await newKey();
  const plain = join(dir, 'five.bin');
  const original = randomBytes(5 * 1024 * 1024);
  writeFileSync(plain, original);
  const sealed = join(dir, 'five.kgst');
  const context = ['--context', 'tenant=acme', '--context', 'dept=billing'];
  const encrypted = await keygate(['encrypt-file', '--key', ttag, ...context, plain, sealed], env);
  t.is(encrypted.status, 0, encrypted.stderr);
  t.is(encrypted.stdout, `wrote ${statSync(sealed).size} bytes to ${sealed}\n`);
  t.is(statSync(sealed).mode & 0o777, 0o600);
  t.is(readFileSync(sealed).subarray(0, 4).toString('latin1'), 'KGST');

  const opened = join(dir, 'five.out');
  const decrypted = await keygate(
    ['decrypt-file', '--key', ttag, '--context', 'dept=billing', '--context', 'tenant=acme', '--json', sealed, opened],
    env,
  );
  t.is(decrypted.status, 0, decrypted.stderr);
  t.deepEqual(JSON.parse(decrypted.stdout), { file: opened, bytes: original.length });
  t.true(readFileSync(opened).equals(original));
  t.is(statSync(opened).mode & 0o777, 0o600);

  const chunks: Uint8Array[] = [];
  const source = Readable.toWeb(Readable.from([readFileSync(sealed)])) as ReadableStream<Uint8Array>;
  await source
    .pipeThrough(decryptStream(api, { ttag, context: { tenant: 'acme', dept: 'billing' } }))
    .pipeTo(new WritableStream({ write: (chunk) => void chunks.push(chunk) }));
  t.true(Buffer.concat(chunks).equals(original), "decryptStream in this process reads the CLI's stream");
  t.deepEqual(leftOf('five.'), ['five.bin', 'five.kgst', 'five.out'], 'no staging file is left');
});

test('decrypt-file refuses a changed, cut or foreign stream with its code, exits 1 and leaves no OUT', async (t) => {
  const ttag = await newKey();
  const plain = join(dir, 'segments.bin');
  writeFileSync(plain, randomBytes(SEGMENT * 5 + 100));
  const sealed = join(dir, 'segments.kgst');
  t.is(
    (await keygate(['encrypt-file', '--key', ttag, '--context', 'tenant=acme', '--segment-size', String(SEGMENT), plain, sealed], env))
      .status,
    0,
  );
  const stream = readFileSync(sealed);
  const headerLength = stream.readUInt16BE(5);
  const segmentAt = (index: number) => headerLength + index * (SEGMENT + 16);
  const flipped = Buffer.from(stream);
  flipped[segmentAt(2) + 100]! ^= 0x01;
  const other = await newKey();
  const cases: [string, Buffer, string[], RegExp][] = [
    ['flipped', flipped, [], /^keygate: decrypt-file: STREAM_DECRYPT_FAILED: segment 2 does not authenticate.*nothing was written to /],
    ['cut', stream.subarray(0, segmentAt(3)), [], /^keygate: decrypt-file: STREAM_DECRYPT_FAILED: segment 2 does not authenticate/],
    ['cut-header', stream.subarray(0, 30), [], /^keygate: decrypt-file: STREAM_MALFORMED: the stream ends inside its header/],
    ['extended', Buffer.concat([stream, Buffer.alloc(20)]), [], /^keygate: decrypt-file: STREAM_DECRYPT_FAILED: segment 5 /],
    ['foreign', stream, ['--key', other], /^keygate: decrypt-file: STREAM_KEY_MISMATCH: /],
    ['other-context', stream, ['--context', 'tenant=umbrella'], /^keygate: decrypt-file: STREAM_CONTEXT_MISMATCH: /],
  ];
  const runs = await Promise.all(
    cases.map(([name, bytes, flags]) => {
      writeFileSync(join(dir, `${name}.kgst`), bytes);
      return keygate(['decrypt-file', ...flags, join(dir, `${name}.kgst`), join(dir, `${name}.out`)], env);
    }),
  );
  cases.forEach(([name, , , message], i) => {
    t.is(runs[i]!.status, 1, name);
    t.regex(runs[i]!.stderr, message, name);
    t.notRegex(runs[i]!.stderr, /\n\s+at /, `${name}: no stack`);
    t.deepEqual(leftOf(`${name}.out`), [], `${name}: no OUT, no staging file`);
  });

  await api.disableKey(ttag);
  const refused = await keygate(['decrypt-file', sealed, join(dir, 'disabled.out')], env);
  t.is(refused.status, 1);
  t.is(refused.stderr, 'keygate: 409 KEY_DISABLED: the key is disabled\n');
  t.deepEqual(leftOf('disabled.out'), []);
});

test('encrypt-file - - and decrypt-file - - stream standard input to standard output', async (t) => {
  const ttag = await newKey();
  const plain = join(dir, 'piped.bin');
  const original = randomBytes(3 * SEGMENT + 7);
  writeFileSync(plain, original);
  const sealed = join(dir, 'piped.kgst');
  const encrypted = await keygateThroughFiles(
    ['encrypt-file', '--key', ttag, '--segment-size', String(SEGMENT), '-', '-'],
    env,
    plain,
    sealed,
  );
  t.is(encrypted.status, 0, encrypted.stderr);
  t.is(readFileSync(sealed).subarray(0, 4).toString('latin1'), 'KGST');
  const opened = join(dir, 'piped.out');
  const decrypted = await keygateThroughFiles(['decrypt-file', '--key', ttag, '-', '-'], env, sealed, opened);
  t.is(decrypted.status, 0, decrypted.stderr);
  t.true(readFileSync(opened).equals(original));
});

test('an existing OUT is kept without --force and replaced with it', async (t) => {
  const ttag = await newKey();
  const plain = join(dir, 'kept.bin');
  writeFileSync(plain, 'the plaintext');
  const out = join(dir, 'kept.kgst');
  writeFileSync(out, 'already here');
  const refused = await keygate(['encrypt-file', '--key', ttag, plain, out], env);
  t.is(refused.status, 2);
  t.regex(refused.stderr, /^keygate: encrypt-file: .*kept\.kgst exists \(--force replaces it\)\n/);
  t.is(readFileSync(out, 'utf8'), 'already here');
  const forced = await keygate(['encrypt-file', '--key', ttag, '--force', plain, out], env);
  t.is(forced.status, 0, forced.stderr);
  const back = join(dir, 'kept.out');
  t.is((await keygate(['decrypt-file', out, back], env)).status, 0);
  t.is(readFileSync(back, 'utf8'), 'the plaintext');
  t.deepEqual(leftOf('kept.'), ['kept.bin', 'kept.kgst', 'kept.out']);
});

test('datakey prints a blob that datakey open opens to the key --with-key printed, by ttag and by alias, with its context only', async (t) => {
  const ttag = await newKey();
  await api.setAlias('cli-datakey', ttag);
  const [bare, withKey] = await Promise.all([
    keygate(['datakey', '--key', ttag], env),
    keygate(['datakey', '--key', 'alias/cli-datakey', '--key-len', '16', '--with-key', '--context', 'tenant=acme'], env),
  ]);
  t.is(bare.status, 0, bare.stderr);
  const made = JSON.parse(bare.stdout) as Record<string, unknown>;
  t.deepEqual(Object.keys(made), ['blob', 'keyLen', 'version'], 'no form of the key without --with-key');
  t.like(made, { keyLen: 32, version: 1 });
  t.is(withKey.status, 0, withKey.stderr);
  const delivered = JSON.parse(withKey.stdout) as { blob: string; keyLen: number; plaintext: string };
  t.is(delivered.keyLen, 16);
  t.is(Buffer.from(delivered.plaintext, 'base64').length, 16);

  const [opened, openedBare, withoutContext] = await Promise.all([
    keygate(['datakey', 'open', '--key', ttag, '--blob', delivered.blob, '--context', 'tenant=acme'], env),
    keygate(['datakey', 'open', '--key', 'alias/cli-datakey', '--blob', made.blob as string], env),
    keygate(['datakey', 'open', '--key', ttag, '--blob', delivered.blob], env),
  ]);
  t.is(withoutContext.status, 1, 'the blob is bound to its context (docs/spec.md §4.5a item 5)');
  t.regex(withoutContext.stderr, /^keygate: 400 DECRYPT_FAILED/);
  t.is(opened.status, 0, opened.stderr);
  t.deepEqual(JSON.parse(opened.stdout), { plaintext: delivered.plaintext, keyLen: 16, version: 1 });
  t.is(openedBare.status, 0, openedBare.stderr);
  t.is(Buffer.from((JSON.parse(openedBare.stdout) as { plaintext: string }).plaintext, 'base64').length, 32);

  const other = await newKey();
  const foreign = await keygate(['datakey', 'open', '--key', other, '--blob', delivered.blob], env);
  t.is(foreign.status, 1);
  t.regex(foreign.stderr, /^keygate: 400 DECRYPT_FAILED/);
  t.is(foreign.stdout, '');
});

test('a bad command line is refused with exit 2 before the gateway is asked, and --help says a key goes to stdout', async (t) => {
  const ttag = 'AAAAAAAAAAAAAAAAAAAAAA==';
  // Every hostile string of the text rule, run in this process: a command line cannot carry a NUL or a lone surrogate.
  const hostile = HOSTILE.filter(({ forbidden, value }) => forbidden !== 'never' || value.length > 256);
  const refusals: [string[], RegExp][] = [
    [['datakey'], /datakey: --key KEY is required/],
    [['datakey', '--key', ttag, '--key-len', '20'], /datakey: --key-len is 16, 24 or 32/],
    [['datakey', 'close', '--key', ttag], /datakey: unexpected argument "close"/],
    [['datakey', '--key', ttag, '--blob', 'AAAA'], /datakey: --blob is for datakey open/],
    [['datakey', 'open', '--key', ttag], /datakey open: --blob B64 is required/],
    [['datakey', 'open', '--key', ttag, '--blob', 'not base64!'], /datakey open: --blob B64 is required, in standard base64/],
    [['datakey', 'open', '--key', ttag, '--blob', 'AAAA', '--with-key'], /datakey open: --with-key and --key-len are for a new data key/],
    [['datakey', '--key', ttag, '--context', 'tenant'], /datakey: --context is NAME=VALUE/],
    [['datakey', '--key', ttag, '--context', '=x'], /datakey: --context is NAME=VALUE/],
    [['datakey', '--key', ttag, '--context', 'a=1', '--context', 'a=2'], /datakey: --context "a" is given twice/],
    [['datakey', '--key', ttag, '--context', 'bad name=x'], /datakey: --context "bad name": the name: 1\.\.128 ASCII/],
    [['datakey', '--key', ttag, ...Array.from({ length: 17 }, (_, i) => ['--context', `n${i}=v`]).flat()], /at most 16 members/],
    ...hostile.map(({ value }): [string[], RegExp] => [
      ['encrypt-file', '--key', ttag, '--context', `tenant=${value}`, 'in', 'out'],
      /encrypt-file: --context "tenant": /,
    ]),
    [['encrypt-file', 'in', 'out'], /encrypt-file: --key TTAG is required/],
    [['encrypt-file', '--key', ttag, 'in'], /encrypt-file: IN and OUT are required/],
    [['encrypt-file', '--key', 'alias/backups', 'in', 'out'], /encrypt-file: --key takes the key's ttag, not an alias/],
    [['encrypt-file', '--key', 'AAAA', 'in', 'out'], /encrypt-file: --key is a ttag, base64 of 16 to 256 bytes/],
    [['encrypt-file', '--key', ttag, '--segment-size', '4095', 'in', 'out'], /--segment-size is a whole number from 4096 to 4194304/],
    [['encrypt-file', '--key', ttag, '--segment-size', '0x1000', 'in', 'out'], /--segment-size is a whole number from 4096 to 4194304/],
    [['encrypt-file', '--key', ttag, join(dir, 'missing.bin'), 'out'], /encrypt-file: cannot read .*missing\.bin \(ENOENT\)/],
    [['encrypt-file', '--key', ttag, dir, 'out'], /encrypt-file: cannot read .* \(EISDIR\)/],
    [
      ['decrypt-file', '--force', cli.adminPasswordFile, '/dev/null'],
      /decrypt-file: \/dev\/null is not a regular file \(- writes to standard output\)/,
    ],
    [['decrypt-file', '--force', cli.adminPasswordFile, dir], /decrypt-file: .* is not a regular file/],
    [['decrypt-file', 'in', 'out', 'more'], /decrypt-file: IN and OUT are required, and nothing else/],
    [['decrypt-file', '--segment-size', '4096', 'in', 'out'], /Unknown option '--segment-size'/],
  ];
  for (const [args, message] of refusals) {
    const what = args.join(' ').slice(0, 80);
    const command = OPERATOR_COMMANDS.find(({ name }) => name === args[0])!;
    const outs: string[] = [];
    const errs: string[] = [];
    const status = await command.run(args.slice(1), { env, out: (text) => outs.push(text), err: (text) => errs.push(text) });
    const [out, err] = [outs.join(''), errs.join('')];
    t.is(status, 2, what);
    t.regex(err, message, what);
    t.true(err.endsWith(`run "keygate ${args[0]} --help" for the usage\n`), what);
    t.is(out, '', what);
  }

  // The binary's own exit status and usage, once for each command.
  const [noKey, datakeyHelp, encryptHelp, decryptHelp, topHelp] = await Promise.all(
    [['decrypt-file', 'in'], ['datakey', '--help'], ['encrypt-file', '--help'], ['decrypt-file', '--help'], ['--help']].map((args) =>
      keygate(args, env),
    ),
  );
  t.is(noKey.status, 2);
  t.is(noKey.stderr, 'keygate: decrypt-file: IN and OUT are required, and nothing else\nrun "keygate decrypt-file --help" for the usage\n');
  t.regex(datakeyHelp.stdout, /^Usage: keygate datakey --key KEY \[--key-len 16\|24\|32\] \[--context NAME=VALUE\]\.\.\. \[--with-key\]\n/);
  t.regex(datakeyHelp.stdout, /--with-key[\s\S]*THIS PUTS A KEY ON STDOUT[\s\S]*open[\s\S]*THIS PUTS A KEY ON STDOUT/);
  t.regex(
    encryptHelp.stdout,
    /^Usage: keygate encrypt-file --key TTAG \[--context NAME=VALUE\]\.\.\. \[--segment-size N\] \[--force\] IN OUT\n/,
  );
  t.regex(decryptHelp.stdout, /^Usage: keygate decrypt-file \[--key TTAG\] \[--context NAME=VALUE\]\.\.\. \[--force\] IN OUT\n/);
  t.regex(decryptHelp.stdout, /STREAM_DECRYPT_FAILED/);
  for (const name of ['datakey ', 'encrypt-file ', 'decrypt-file ']) t.true(topHelp.stdout.includes(`  ${name}`), name);
});

/** Resolves once the staging file of OUT `name` holds bytes: the stream's header is out, so the command is well under way. */
function stagingWritten(name: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const staged = readdirSync(dir).find((entry) => entry.startsWith(`.${name}.`));
      if (staged === undefined || statSync(join(dir, staged), { throwIfNoEntry: false })?.size === 0) return;
      watcher.close();
      resolve();
    };
    const watcher = watch(dir, check);
    check();
  });
}

test('encrypt-file interrupted by SIGINT removes its staging file and says that nothing was written', async (t) => {
  const ttag = await newKey();
  const child = spawn(process.execPath, [BIN, 'encrypt-file', '--key', ttag, '-', join(dir, 'interrupted.kgst')], {
    env: { ...process.env, KEYGATE_URL: cli.url, ...env },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const closed = once(child, 'close');
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin?.write(randomBytes(1000)); // standard input stays open: the command waits for more
  await stagingWritten('interrupted.kgst');
  child.kill('SIGINT');
  const [code] = await closed;
  t.is(code, 130);
  t.regex(stderr, /^keygate: encrypt-file: interrupted \(SIGINT\); nothing was written to .*interrupted\.kgst\n$/);
  t.deepEqual(leftOf('interrupted.kgst'), []);
});
