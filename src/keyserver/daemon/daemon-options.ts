import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { MasterKeySettings } from '../at-rest/master-key-source.js';
import { ConfigError } from '../config-error.js';
import {
  DEFAULT_DELETION_MAX_DAYS,
  DEFAULT_DELETION_MIN_DAYS,
  DELETION_DAYS_LIMIT,
  type DeletionDays,
  deletionDaysProblem,
} from '../engine/deletion-days.js';
import { MAX_KEY_VERSIONS_LIMIT } from '../engine/key-versions.js';
import { flagProblem } from '../flag-problem.js';
import { normaliseFingerprint } from '../identity/fingerprint.js';
import { type PrincipalSeed, readSeedFile } from '../seed-file.js';
import type { ClientTrust } from './client-trust.js';

/** How `keygate keyserver` runs. */
export interface DaemonOptions {
  readonly host: string;
  readonly port: number;
  /** SQLite file of the engine, or `:memory:`; with `postgresUrl`, only where the identity files are kept. */
  readonly dataPath: string;
  /** --postgres / TE_KEYSERVER_POSTGRES_URL: the engine's store in PostgreSQL, shared with other daemons. */
  readonly postgresUrl?: string;
  /** A given certificate and key (PEM); absent: generated on first start, kept beside the data file. */
  readonly identity?: { readonly certPath: string; readonly keyPath: string };
  readonly tokenTtlSeconds?: number;
  /** --rotation-sweep / TE_KEYSERVER_ROTATION_SWEEP_SECONDS: how often due key rotations are looked for (absent: 60). */
  readonly rotationSweepSeconds?: number;
  /** --max-key-versions / TE_KEYSERVER_MAX_KEY_VERSIONS: the most versions a key may have (absent: 100). */
  readonly maxKeyVersions?: number;
  /**
   * --deletion-min-days, --deletion-max-days / TE_KEYSERVER_DELETION_MIN_DAYS, _MAX_DAYS: the fewest and
   * most days a scheduled deletion waits (absent: 7 and 30; docs/spec.md §4.23 item 5).
   */
  readonly deletionDays?: DeletionDays;
  readonly seed?: PrincipalSeed;
  /** --seed: the file the seed was read from (it holds passwords: its mode is checked). */
  readonly seedFile?: string;
  readonly adminPassword?: string;
  /** TE_KEYSERVER_MASTER_KEY: base64 master key(s), the first sealing. */
  readonly masterKey?: string;
  /** --master-key-file / TE_KEYSERVER_MASTER_KEY_FILE; with neither this nor the key, a file beside the data. */
  readonly masterKeyFile?: string;
  /** The gateways it serves (mutual TLS): at least one CA or one fingerprint. */
  readonly clientTrust: ClientTrust;
}

export const DAEMON_USAGE = `Usage: keygate keyserver [options]

Serves the key-server engine over TLS 1.3 (JSON, framed or over HTTP/1.1: docs/keyserver-protocol.md).

Options:
  --host HOST             listen address (default 127.0.0.1)
  --port PORT             listen port (default 8443; 0 picks a free one)
  --data PATH             SQLite file of principals, keys, ACLs and tokens (default ./data/keyserver.db;
                          :memory: keeps nothing)
  --postgres URL          postgres://user:password@host:port/database: the store in PostgreSQL instead,
                          shared by several daemons (or TE_KEYSERVER_POSTGRES_URL, or its _FILE form; the
                          variable keeps the password out of the process list). The master key must then
                          be given, the same to every daemon; --data only places the identity files
  --cert PATH, --key PATH the TLS certificate and private key (PEM); without them a self-signed identity
                          is generated on first start and kept beside the data file
  --client-ca FILE        PEM of a CA whose client certificates are gateways it serves (repeatable)
  --client-fingerprint SHA256
                          SHA-256 of a gateway's client certificate (hex, colons allowed; repeatable, one
                          per gateway: each prints its own at start). At least one of the two is
                          required: any other connection is closed before a byte of a request is read
  --token-ttl SECONDS     lifetime of an issued token (default: never expires)
  --rotation-sweep SECONDS
                          how often the daemon rotates the keys whose rotationPeriod has passed, and
                          forgets Idempotency-Key records older than 24 hours (default 60, at least 1; or
                          TE_KEYSERVER_ROTATION_SWEEP_SECONDS). Daemons sharing a PostgreSQL store rotate
                          each due key once between them
  --max-key-versions N    the most versions a key may have (default 100, from 1 to 10000; or
                          TE_KEYSERVER_MAX_KEY_VERSIONS): a rotation beyond it is KEY_VERSIONS_EXHAUSTED
  --deletion-min-days N, --deletion-max-days N
                          the fewest and most days a scheduled key deletion waits (defaults 7 and 30, from
                          1 to 365, the minimum at most the maximum; or TE_KEYSERVER_DELETION_MIN_DAYS,
                          TE_KEYSERVER_DELETION_MAX_DAYS); a deletion not told waits the maximum
  --seed FILE             JSON file {"principals":[...]} of principals to create; existing ones are kept
  --admin-password PW     password of the bootstrap user "admin" (or TE_KEYSERVER_ADMIN_PASSWORD; the
                          variable keeps it out of the process list)
  --master-key-file FILE  the master key that seals key material and verifiers in the data file (base64 of
                          32 bytes, one per line, the first sealing; or TE_KEYSERVER_MASTER_KEY_FILE, or the
                          key itself in TE_KEYSERVER_MASTER_KEY). With none, one is generated beside the data
                          file (<data>.master.key, mode 0600) with a warning
  --help                  this text
With neither a seed nor an admin password, and no "admin" yet, the users "admin" and "guest" are
created with generated passwords, printed once. At start the daemon prints one line:
  keygate keyserver: listening url=https://HOST:PORT port=PORT fingerprint=SHA256HEX

keygate keyserver rotate-master-key [--data PATH | --postgres URL] [--master-key-file FILE]
  With the daemon stopped, rewraps every sealed row under a new master key and prints the old and new
  key ids. On PostgreSQL it is refused while any daemon serves the store (stop them all first). A key file gets a new key (the old one stays in it until every row is rewrapped); with
  TE_KEYSERVER_MASTER_KEY, list the new key first and the old one after it, run this, then drop the old.

keygate keyserver reset-password PRINCIPAL [--data PATH | --postgres URL] [--master-key-file FILE]
  With no process serving the store, gives PRINCIPAL a new generated password, printed once: the way
  back in for an operator locked out of "admin" ("keygate keyserver reset-password --help").

keygate keyserver backup --out FILE [--data PATH | --postgres URL]
keygate keyserver restore --in FILE [--data PATH | --postgres URL]
  A consistent, authenticated backup of a serving store; a restore into an empty store ("--help" of each).
`;

const FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  data: { type: 'string' },
  postgres: { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'token-ttl': { type: 'string' },
  'rotation-sweep': { type: 'string' },
  'max-key-versions': { type: 'string' },
  'deletion-min-days': { type: 'string' },
  'deletion-max-days': { type: 'string' },
  seed: { type: 'string' },
  'admin-password': { type: 'string' },
  'master-key-file': { type: 'string' },
  'client-ca': { type: 'string', multiple: true },
  'client-fingerprint': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Reads the daemon's flags (and TE_KEYSERVER_ADMIN_PASSWORD). Answers 'help' for --help; a bad flag
 * or value throws a ConfigError whose message is one line naming it.
 */
/** `keygate keyserver rotate-master-key`: the data file and where its master key comes from. */
export function parseRotateArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): MasterKeySettings | 'help' {
  const values = readFlags(argv);
  if (values.help) return 'help';
  const options = { dataPath: nonEmpty(values.data) ?? './data/keyserver.db', ...masterKeyOf(values, env) };
  const postgresUrl = postgresOf(values, env, options);
  return {
    dataPath: options.dataPath,
    ...(postgresUrl === undefined ? {} : { postgresUrl }),
    ...(options.masterKey === undefined ? {} : { key: options.masterKey }),
    ...(options.masterKeyFile === undefined ? {} : { file: options.masterKeyFile }),
  };
}

/** Reads --client-ca files and --client-fingerprint pins; with neither the daemon would serve any TLS peer, so it refuses. */
function clientTrustOf(caFiles: readonly string[], pins: readonly string[]): ClientTrust {
  if (caFiles.length === 0 && pins.length === 0) {
    throw new ConfigError('no gateway is trusted: give --client-ca FILE or --client-fingerprint SHA256 (one per gateway)');
  }
  const cas = caFiles.map((file) => {
    let pem: string;
    try {
      pem = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`--client-ca: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`--client-ca: ${file} holds no PEM certificate`);
    return pem;
  });
  const fingerprints = pins.map((pin) => normaliseFingerprint(pin) ?? fail(`--client-fingerprint: expected 64 hex digits, got "${pin}"`));
  return { cas, fingerprints };
}

function fail(message: string): never {
  throw new ConfigError(message);
}

export function parseDaemonArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): DaemonOptions | 'help' {
  const values = readFlags(argv);
  if (values.help) return 'help';
  if ((values.cert === undefined) !== (values.key === undefined)) throw new ConfigError('--cert and --key go together');
  const ttl = values['token-ttl'] === undefined ? undefined : integer('--token-ttl', values['token-ttl'], 1, 10 * 365 * 86_400);
  const adminPassword = values['admin-password'] ?? nonEmpty(env.TE_KEYSERVER_ADMIN_PASSWORD);
  if (adminPassword === '') throw new ConfigError('--admin-password: must not be empty');
  const rotationSweepSeconds = rotationSweepOf(values, env);
  const maxKeyVersions = oneOf(
    values['max-key-versions'],
    env.TE_KEYSERVER_MAX_KEY_VERSIONS,
    '--max-key-versions',
    'TE_KEYSERVER_MAX_KEY_VERSIONS',
    1,
    MAX_KEY_VERSIONS_LIMIT,
  );
  const deletionDays = deletionDaysOf(values, env);
  const { masterKey, masterKeyFile } = masterKeyOf(values, env);
  const postgresUrl = postgresOf(values, env, { masterKey, masterKeyFile });
  return {
    host: nonEmpty(values.host) ?? '127.0.0.1',
    port: values.port === undefined ? 8443 : integer('--port', values.port, 0, 65_535),
    dataPath: nonEmpty(values.data) ?? './data/keyserver.db',
    ...(postgresUrl === undefined ? {} : { postgresUrl }),
    ...(values.cert !== undefined && values.key !== undefined ? { identity: { certPath: values.cert, keyPath: values.key } } : {}),
    ...(ttl === undefined ? {} : { tokenTtlSeconds: ttl }),
    ...(rotationSweepSeconds === undefined ? {} : { rotationSweepSeconds }),
    ...(maxKeyVersions === undefined ? {} : { maxKeyVersions }),
    ...(deletionDays === undefined ? {} : { deletionDays }),
    ...(values.seed === undefined ? {} : { seed: readSeedFile(values.seed, '--seed'), seedFile: values.seed }),
    ...(adminPassword === undefined ? {} : { adminPassword }),
    ...(masterKey === undefined ? {} : { masterKey }),
    ...(masterKeyFile === undefined ? {} : { masterKeyFile }),
    // Last: a bad value of another flag is named first, as a one-line fix.
    clientTrust: clientTrustOf(values['client-ca'] ?? [], values['client-fingerprint'] ?? []),
  };
}

/** An integer flag or its variable (one of the two), from `min` to `max`; neither: undefined (the default). */
function oneOf(
  flag: string | undefined,
  variable: string | undefined,
  flagName: string,
  variableName: string,
  min: number,
  max: number,
): number | undefined {
  const fromEnv = nonEmpty(variable);
  if (flag !== undefined && fromEnv !== undefined) throw new ConfigError(`${flagName} and ${variableName}: give one of the two`);
  if (flag !== undefined) return integer(flagName, flag, min, max);
  return fromEnv === undefined ? undefined : integer(variableName, fromEnv, min, max);
}

/** The deletion bounds of the flags or their variables, each from 1 to 365, the minimum at most the maximum; neither: the defaults. */
function deletionDaysOf(values: ReturnType<typeof readFlags>, env: Readonly<Record<string, string | undefined>>): DeletionDays | undefined {
  const min = oneOf(
    values['deletion-min-days'],
    env.TE_KEYSERVER_DELETION_MIN_DAYS,
    '--deletion-min-days',
    'TE_KEYSERVER_DELETION_MIN_DAYS',
    1,
    DELETION_DAYS_LIMIT,
  );
  const max = oneOf(
    values['deletion-max-days'],
    env.TE_KEYSERVER_DELETION_MAX_DAYS,
    '--deletion-max-days',
    'TE_KEYSERVER_DELETION_MAX_DAYS',
    1,
    DELETION_DAYS_LIMIT,
  );
  if (min === undefined && max === undefined) return undefined;
  const days = { min: min ?? DEFAULT_DELETION_MIN_DAYS, max: max ?? DEFAULT_DELETION_MAX_DAYS };
  const problem = deletionDaysProblem(days);
  if (problem !== undefined) throw new ConfigError(`--deletion-min-days, --deletion-max-days: ${problem}`);
  return days;
}

/** --rotation-sweep or TE_KEYSERVER_ROTATION_SWEEP_SECONDS (one of the two): seconds from 1 to a day; neither: the default. */
function rotationSweepOf(values: ReturnType<typeof readFlags>, env: Readonly<Record<string, string | undefined>>): number | undefined {
  const flag = values['rotation-sweep'];
  const variable = nonEmpty(env.TE_KEYSERVER_ROTATION_SWEEP_SECONDS);
  if (flag !== undefined && variable !== undefined)
    throw new ConfigError('--rotation-sweep and TE_KEYSERVER_ROTATION_SWEEP_SECONDS: give one of the two');
  if (flag !== undefined) return integer('--rotation-sweep', flag, 1, 86_400);
  return variable === undefined ? undefined : integer('TE_KEYSERVER_ROTATION_SWEEP_SECONDS', variable, 1, 86_400);
}

function masterKeyOf(values: ReturnType<typeof readFlags>, env: Readonly<Record<string, string | undefined>>) {
  const masterKey = nonEmpty(env.TE_KEYSERVER_MASTER_KEY);
  const masterKeyFile = nonEmpty(values['master-key-file']) ?? nonEmpty(env.TE_KEYSERVER_MASTER_KEY_FILE);
  if (masterKey !== undefined && masterKeyFile !== undefined) {
    throw new ConfigError('TE_KEYSERVER_MASTER_KEY and --master-key-file (or TE_KEYSERVER_MASTER_KEY_FILE): give one of the two');
  }
  return { masterKey, masterKeyFile };
}

/**
 * --postgres or TE_KEYSERVER_POSTGRES_URL (one of the two). Every daemon on one database must seal
 * under the same master key, so it must be given: one generated beside --data would be this daemon's alone.
 */
function postgresOf(
  values: ReturnType<typeof readFlags>,
  env: Readonly<Record<string, string | undefined>>,
  keys: { masterKey: string | undefined; masterKeyFile: string | undefined },
): string | undefined {
  const flag = nonEmpty(values.postgres);
  const variable = nonEmpty(env.TE_KEYSERVER_POSTGRES_URL);
  if (flag !== undefined && variable !== undefined) throw new ConfigError('--postgres and TE_KEYSERVER_POSTGRES_URL: give one of the two');
  const url = flag ?? variable;
  if (url === undefined) return undefined;
  const name = flag === undefined ? 'TE_KEYSERVER_POSTGRES_URL' : '--postgres';
  if (!/^postgres(?:ql)?:\/\/./.test(url)) throw new ConfigError(`${name}: expected a postgres:// or postgresql:// URL`);
  if (keys.masterKey === undefined && keys.masterKeyFile === undefined) {
    throw new ConfigError(
      `${name}: give the master key (--master-key-file FILE or TE_KEYSERVER_MASTER_KEY), the same to every daemon on the database`,
    );
  }
  return url;
}

function readFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ConfigError(flagProblem(error));
  }
}

function integer(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${flag}: expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
