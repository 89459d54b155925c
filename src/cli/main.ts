import { CONFIG_DEFAULTS } from '../app/config/config.js';
import { helpVariables } from '../app/config/docs.js';
import { withFileVariables } from '../app/config/env-files.js';
import { configFromEnv } from '../app/config/from-env.js';
import { maskedConfig } from '../app/config/masked.js';
import { unknownVariableWarnings } from '../app/config/unknown-variables.js';
import { GATEWAY_VERSION } from '../app/version.js';
import { isKeygateError } from '../domain/errors/index.js';
import { ConfigError } from '../keyserver/config-error.js';
import { DAEMON_USAGE, parseDaemonArgs, parseRotateArgs } from '../keyserver/daemon/daemon-options.js';
import { helpHint, UsageError } from './commands/command.js';
import { OPERATOR_COMMANDS, operatorCommandLines } from './commands/index.js';

const USAGE = `Usage: keygate <command> [--help]
       keygate --version

Commands:
  serve       Run the gateway (default). Configuration comes from the environment, read once at boot
              (an unknown TE_* variable is reported on stderr, and the boot goes on);
              "keygate serve --print-config" prints it as JSON, secrets masked, and exits:
${helpVariables('              ')}              With neither a seed nor an admin password, the users "admin" and "guest" are created with
              generated passwords, printed once.
              On SIGTERM or SIGINT the gateway stops accepting, lets requests in flight finish (10 s at
              most), closes its stores and exits 0. It prints "keygate: listening url=... port=..." once up,
              then where the operator console is (TE_GATEWAY_CONSOLE=off turns it off).
              --new-audit-chain: begin a new audit chain although the store lost the end of the one
              this gateway wrote before (without it, such a store stops the boot). The new chain is a
              new writer (<writer>~2, ~3, ...) whose first entry records the loss; the old witnessed
              head is kept, and "keygate audit verify" keeps reporting what was lost. Without a loss
              the flag changes nothing.
  keyserver   Run the key-server daemon over TLS 1.3 ("keygate keyserver --help" lists its options).
  audit       Verify or export the audit log, print its checkpoint key ("keygate audit --help").

Operator commands, against a running gateway (KEYGATE_URL; the session from KEYGATE_SESSION_FILE or
KEYGATE_SESSION, kept off the command line; "keygate <command> --help"):
${operatorCommandLines('  ')}`;

/** A mistyped variable would otherwise be ignored without a word: one line each, and the boot goes on. */
function warnUnknownVariables(): void {
  for (const warning of unknownVariableWarnings(process.env)) process.stderr.write(`keygate: warning: ${warning}\n`);
}

async function serve(newAuditChain = false): Promise<void> {
  warnUnknownVariables();
  const fromEnv = configFromEnv(process.env, { dataDir: CONFIG_DEFAULTS.cliDataDir });
  const config = newAuditChain ? { ...fromEnv, auditIntegrity: { ...fromEnv.auditIntegrity, newChain: true } } : fromEnv;
  // The gateway's stack (Koa, the stores, the key server) is loaded only by the commands that run it:
  // `--version`, `--help` and the operator commands start without it.
  const { looseSecretFileWarnings } = await import('../app/secret-file-modes.js');
  for (const warning of looseSecretFileWarnings(process.env, config.auditIntegrity.dataDir))
    process.stderr.write(`keygate: warning: ${warning}\n`);
  const { bindGatewayPorts, createGateway, DEFAULT_DRAIN_MS } = await import('../app/create-gateway.js');
  // The ports first, before anything is opened or created (docs/operations.md "Boot sequence"): a port
  // in use must not leave a first start's users made and their generated passwords never shown.
  const ports = await bindGatewayPorts(config);
  const gateway = await createGateway(config).catch(async (error: unknown) => {
    await Promise.all([ports.api.drain(0), ports.metrics?.drain(0)]);
    throw error;
  });
  // Said on stderr as well as in the log, and before the start line: the log may write them later.
  for (const warning of gateway.bootWarnings) process.stderr.write(`keygate: warning: ${warning}\n`);
  const { url } = gateway.serve(ports);
  // Handlers first: a supervisor that signals as soon as it reads the start line must not find the
  // default action (immediate death) still in place. Closing drains requests in flight first.
  stopOnSignal(
    () => gateway.close({ drainMs: DEFAULT_DRAIN_MS }),
    (signal) => gateway.logger.info('shutting down', { signal }),
    DEFAULT_DRAIN_MS + 5_000,
  );
  // The log writes the lines of one event-loop turn at its end (turnBatchedDestination): one turn
  // later, every line of the boot, its warnings included, is out before the start lines below.
  await new Promise((turn) => setImmediate(turn));
  process.stdout.write(passwordsBlock(gateway.generatedPasswords));
  gateway.logger.info('keygate listening', { url, ksFingerprint: gateway.ksFingerprint });
  // One parseable line, as the daemon prints: scripts and tests start on port 0 and read it.
  process.stdout.write(`keygate: listening url=${url} port=${new URL(url).port}\n`);
  if (gateway.config.console === 'on') process.stdout.write(`keygate: console url=${url}/console/\n`);
  const metricsUrl = gateway.metricsUrl();
  if (metricsUrl !== undefined) process.stdout.write(`keygate: metrics url=${metricsUrl}\n`);
}

/** The generated passwords as one framed block, written at once so no log line falls inside it. */
function passwordsBlock(passwords: Readonly<Record<string, string>> | undefined): string {
  const users = Object.entries(passwords ?? {});
  if (users.length === 0) return '';
  const lines = ['keygate: generated passwords (shown once):', ...users.map(([user, password]) => `  ${user}: ${password}`)];
  const rule = `keygate: ${'-'.repeat(60)}`;
  return `${[rule, ...lines, rule].join('\n')}\n`;
}

/** The configuration `serve` would run with, as JSON with its secrets masked; nothing listens, nothing is written. */
function printConfig(): number {
  warnUnknownVariables();
  const config = configFromEnv(process.env, { dataDir: CONFIG_DEFAULTS.cliDataDir });
  process.stdout.write(`${JSON.stringify(maskedConfig(config), null, 2)}\n`);
  return 0;
}

/** Runs until a signal: `close` then exits 0 (1 if closing fails or outlasts `deadlineMs`). */
function stopOnSignal(close: () => Promise<void>, onSignal: (signal: string) => void = () => undefined, deadlineMs = 10_000): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    onSignal(signal);
    const deadline = setTimeout(() => process.exit(1), deadlineMs);
    deadline.unref();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

async function rotate(argv: readonly string[]): Promise<number> {
  const settings = parseRotateArgs(argv, withFileVariables(process.env));
  if (settings === 'help') {
    process.stdout.write(DAEMON_USAGE);
    return 0;
  }
  const { rotateMasterKey, rotatePostgresMasterKey } = await import('../keyserver/at-rest/rotate-master-key.js');
  const { postgresUrl } = settings;
  const rotation =
    postgresUrl === undefined ? await rotateMasterKey(settings) : await rotatePostgresMasterKey({ ...settings, postgresUrl });
  const file = rotation.file === undefined ? '' : ` file=${rotation.file}`;
  process.stdout.write(
    `keygate keyserver: master key rotated old=${rotation.oldIds.join(',') || '-'} new=${rotation.newId} rows=${rotation.rows}${file}\n`,
  );
  return 0;
}

async function keyserver(argv: readonly string[]): Promise<number> {
  warnUnknownVariables();
  if (argv[0] === 'rotate-master-key') return rotate(argv.slice(1));
  if (argv[0] === 'reset-password') {
    const { runResetPassword } = await import('./keyserver-reset-password.js');
    const io = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
    return runResetPassword(argv.slice(1), withFileVariables(process.env), io);
  }
  if (argv[0] === 'backup' || argv[0] === 'restore') {
    const { runBackupCommand } = await import('./keyserver-backup.js');
    const io = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
    return runBackupCommand(argv[0], argv.slice(1), withFileVariables(process.env), io);
  }
  const options = parseDaemonArgs(argv, withFileVariables(process.env));
  if (options === 'help') {
    process.stdout.write(DAEMON_USAGE);
    return 0;
  }
  const { startKeyServerDaemon } = await import('../keyserver/daemon/daemon-server.js');
  const daemon = await startKeyServerDaemon(options, (line) => process.stderr.write(`${line}\n`));
  stopOnSignal(() => daemon.close());
  const { daemonSecretFileWarnings } = await import('../keyserver/daemon/daemon-secret-files.js');
  for (const warning of daemonSecretFileWarnings(options, process.env)) process.stderr.write(`keygate keyserver: warning: ${warning}\n`);
  for (const [user, password] of Object.entries(daemon.generatedPasswords ?? {})) {
    process.stdout.write(`keygate keyserver: generated password for user "${user}": ${password}\n`);
  }
  // One parseable line: tests and scripts start the daemon on port 0 and read where it listens.
  process.stdout.write(`keygate keyserver: listening url=${daemon.url} port=${daemon.port} fingerprint=${daemon.fingerprint}\n`);
  return -1;
}

async function run(command: string, rest: readonly string[]): Promise<number> {
  if (command === 'keyserver') return keyserver(rest);
  if (command === '--version' || command === '-v' || command === 'version') {
    process.stdout.write(`keygate ${GATEWAY_VERSION}\n`);
    return 0;
  }
  const operator = OPERATOR_COMMANDS.find((candidate) => candidate.name === command);
  if (operator !== undefined) {
    try {
      return await operator.run(rest, {
        env: process.env,
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(`keygate: ${error.message}\n${helpHint(operator.name)}\n`);
      return 2;
    }
  }
  if (command === '--help' || command === '-h' || command === 'help' || rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command !== 'serve') {
    process.stderr.write(`keygate: unknown command "${command}"\n${helpHint()}\n`);
    return 2;
  }
  if (rest.length === 1 && rest[0] === '--print-config') return printConfig();
  const unexpected = rest.find((argument) => argument !== '--new-audit-chain');
  if (unexpected !== undefined) {
    process.stderr.write(`keygate: unexpected argument "${unexpected}"\n`);
    return 2;
  }
  await serve(rest.includes('--new-audit-chain'));
  return -1;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  try {
    return await run(command, rest);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`keygate: ${error.message}\n`);
      return 2;
    }
    if (isKeygateError(error) && error.code === 'AUDIT_UNAVAILABLE') {
      process.stderr.write(`keygate: ${auditFailure(error)}\n`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      process.stderr.write(`keygate: cannot listen: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
}

/** One line naming the setting behind an audit store that could not be opened; never the URL's password. */
function auditFailure(error: Error): string {
  let url: string | undefined;
  try {
    url = withFileVariables(process.env).TE_GATEWAY_AUDIT_URL?.trim();
  } catch {
    url = process.env.TE_GATEWAY_AUDIT_URL?.trim();
  }
  const setting = url ? 'TE_GATEWAY_AUDIT_URL' : 'TE_GATEWAY_DATA_DIR';
  let line = `${setting}: audit store unavailable: ${error.message}`;
  if (error.cause instanceof Error) line += `: ${error.cause.message}`;
  let password = '';
  try {
    password = url ? decodeURIComponent(new URL(url).password) : '';
  } catch {
    // not a URL: the configuration check refused it before this point
  }
  for (const secret of [url, password]) if (secret) line = line.split(secret).join('[redacted]');
  return line.replace(/\s+/g, ' ');
}

main(process.argv.slice(2)).then(
  (status) => {
    if (status >= 0) process.exit(status);
  },
  (error: unknown) => {
    process.stderr.write(`keygate: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
