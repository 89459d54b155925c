import { ConfigError } from '../app/config.js';
import { configFromEnv } from '../app/env-config.js';
import { createGateway } from '../app/create-gateway.js';
import { isKeygateError } from '../domain/errors/index.js';

const USAGE = `Usage: keygate <command> [--help]

Commands:
  serve       Run the gateway (default). Configuration comes from the environment:
                TE_GATEWAY_HOST                 listen address (default 127.0.0.1)
                TE_GATEWAY_PORT                 listen port (default 8080)
                TE_GATEWAY_SESSION_TTL_SECONDS  gateway session lifetime (default 43200)
                TE_GATEWAY_LOG_LEVEL            fatal|error|warn|info|debug|trace|silent (default info)
                TE_GATEWAY_DATA_DIR             where the embedded key server keeps its identity and the audit
                                                log (audit.db, SQLite) (default ./data)
                TE_GATEWAY_AUDIT_URL            postgres://user:password@host:port/db: the audit log in PostgreSQL
                                                instead of SQLite
                TE_KEYSERVER_SEED               JSON file of principals to create at start
                TE_KEYSERVER_ADMIN_PASSWORD     password of the bootstrap user "admin"
                TE_KEYSERVER_TOKEN_TTL_SECONDS  key-server token lifetime (default: never expires)
              With neither a seed nor an admin password, the users "admin" and "guest" are created with
              generated passwords, printed once.
`;

async function serve(): Promise<void> {
  const gateway = await createGateway(configFromEnv(process.env, { dataDir: './data' }));
  const { url } = await gateway.listen();
  for (const [user, password] of Object.entries(gateway.generatedPasswords ?? {})) {
    process.stdout.write(`keygate: generated password for user "${user}": ${password}\n`);
  }
  gateway.logger.info('keygate listening', { url, ksFingerprint: gateway.ksFingerprint });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.logger.info('shutting down', { signal });
    const deadline = setTimeout(() => process.exit(1), 10_000);
    deadline.unref();
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help' || rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command !== 'serve') {
    process.stderr.write(`keygate: unknown command "${command}"\n${USAGE}`);
    return 2;
  }
  if (rest.length > 0) {
    process.stderr.write(`keygate: unexpected argument "${rest[0]}"\n`);
    return 2;
  }
  try {
    await serve();
    return -1;
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
  const url = process.env.TE_GATEWAY_AUDIT_URL?.trim();
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
