import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileAuditWitness } from '../adapters/audit-log/file-audit-witness.js';
import { AuditChain, type AuditChainHead, type AuditSigningKey, auditSigningKey } from '../domain/audit/audit-chain.js';
import { auditKeyId } from '../domain/audit/audit-entry.js';
import { currentChainWriter, nextChainWriter } from '../domain/audit/audit-restart.js';
import type { WitnessedHead } from '../domain/audit/audit-witness.js';
import { ConfigError } from '../keyserver/config-error.js';
import type { Logger } from '../ports/logger.port.js';
import type { AuditVerifyKeys } from '../use-cases/audit.js';
import type { AuditIntegrityConfig } from './config/config.js';

/** Files kept in the data directory when the keys are not given (0600, the directory 0700). */
export const AUDIT_FILES = { macKey: 'audit-mac.key', signingKey: 'audit-signing.pem', writer: 'audit-writer' } as const;

/** What the gateway's audit store and verifier need, resolved at boot. */
export interface AuditIntegrity {
  readonly chain: AuditChain;
  readonly signingKey: AuditSigningKey;
  readonly verifyKeys: AuditVerifyKeys;
  /** The head the witness saw of `chain`'s writer, which the store must still hold (none: a new chain). */
  readonly witnessed: AuditChainHead | undefined;
  /** Whether the operator asked to begin a new chain when the store lost this one (`--new-audit-chain`). */
  readonly newChain: boolean;
  /** A chain of a new writer for this gateway (docs/spec.md §9.6), after every one its witness knows. */
  nextChain(): AuditChain;
  /**
   * Writes what was generated for the data directory (0600, with a warning each): called once every
   * other check of the boot has passed, so a boot refused later leaves nothing behind (docs/operations.md
   * "Boot sequence"). Nothing was written before; a second call writes nothing.
   */
  keep(): void;
}

/**
 * Resolves the writer id and keys (given, else kept in the data directory, else this process only),
 * says at boot which checkpoint key signs and where generated keys went, and builds the chain of the
 * gateway's current writer: the newest chain its witness knows (a chain begun by `--new-audit-chain`
 * is a writer of its own, `<writer>~2`, `~3`, ...).
 */
export function loadAuditIntegrity(config: AuditIntegrityConfig, logger: Logger, now: () => number): AuditIntegrity {
  const dir = config.dataDir;
  const pending: (() => void)[] = [];
  const macKey = config.key ?? kept(dir, AUDIT_FILES.macKey, () => randomBytes(32).toString('base64'), logger, pending, 'MAC key');
  const signingKey = parseSigningKey(
    config.signingKey ?? kept(dir, AUDIT_FILES.signingKey, newSigningPem, logger, pending, 'checkpoint signing key'),
  );
  const base = config.writer ?? kept(dir, AUDIT_FILES.writer, () => `gw-${randomBytes(6).toString('hex')}`, logger, pending);
  const key = Buffer.from(macKey, 'base64');
  if (key.length !== 32) throw new ConfigError(`TE_GATEWAY_DATA_DIR: ${AUDIT_FILES.macKey} does not hold base64 of 32 bytes`);
  const publicKeys = new Map<string, KeyObject>([[signingKey.keyId, signingKey.publicKey]]);
  for (const pem of config.trustedKeys) {
    const trusted = parsePublicKey(pem);
    publicKeys.set(auditKeyId(trusted), trusted);
  }
  const witness = dir === undefined ? undefined : new FileAuditWitness(dir);
  const heads = witnessedHeads(witness);
  const writer = currentChainWriter(
    base,
    heads.map((head) => head.writer),
  );
  const witnessed = heads.find((head) => head.writer === writer);
  const chainOf = (writer: string, witnessed: AuditChainHead | undefined) => {
    const onWitness = (head: AuditChainHead) => {
      try {
        witness?.recordNow({ writer, seq: head.seq, mac: head.mac });
      } catch (error) {
        logger.error('audit chain head not witnessed', { file: witness?.file, cause: (error as Error).message });
      }
    };
    const onRegression = (detail: string) =>
      logger.error('audit chain regressed: the audit store lost entries this gateway wrote; every audited write is refused', {
        writer,
        detail,
      });
    return new AuditChain({
      writer,
      macKey: key,
      signingKey,
      checkpointEvery: config.checkpointEvery,
      checkpointSeconds: config.checkpointSeconds,
      now,
      onRegression,
      onWitness,
      ...(witnessed === undefined ? {} : { witnessed }),
    });
  };
  logger.info('audit log chained and checkpointed', {
    writer,
    checkpointKeyId: signingKey.keyId,
    checkpointPublicKey: signingKey.publicKey.export({ type: 'spki', format: 'pem' }).toString().trim(),
  });
  const keep = () => {
    for (const write of pending.splice(0)) write();
  };
  return {
    chain: chainOf(writer, witnessed),
    signingKey,
    verifyKeys: { macKey: key, publicKeys, ...(witness === undefined ? {} : { witness }) },
    witnessed,
    newChain: config.newChain,
    nextChain: () =>
      chainOf(
        nextChainWriter(
          base,
          witnessedHeads(witness).map((head) => head.writer),
        ),
        undefined,
      ),
    keep,
  };
}

/** The heads in the witness file (none without a data directory); a witness that cannot be read stops the boot. */
function witnessedHeads(witness: FileAuditWitness | undefined): WitnessedHead[] {
  if (witness === undefined) return [];
  try {
    return witness.headsNow();
  } catch (error) {
    throw new ConfigError(`TE_GATEWAY_DATA_DIR: cannot read the audit chain witness ${witness.file} (${(error as Error).message})`);
  }
}

function newSigningPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * A value kept in `dir/name`: read when there, else generated, its write (0600, with a warning) added
 * to `pending` for `keep`.
 */
function kept(
  dir: string | undefined,
  name: string,
  generate: () => string,
  logger: Logger,
  pending: (() => void)[],
  warnAs?: string,
): string {
  if (dir === undefined) {
    if (warnAs !== undefined)
      logger.warn(`audit ${warnAs} generated for this process only: its chain cannot be verified after a restart`, {
        set: 'TE_GATEWAY_DATA_DIR or the key itself',
      });
    return generate();
  }
  const path = join(dir, name);
  const refuse = (error: unknown) =>
    new ConfigError(`TE_GATEWAY_DATA_DIR: cannot keep ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  let value: string;
  try {
    if (existsSync(path)) return readFileSync(path, 'utf8').trim();
    value = generate();
  } catch (error) {
    throw refuse(error);
  }
  pending.push(() => {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(path, value, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      throw refuse(error);
    }
    if (warnAs !== undefined)
      logger.warn(`audit ${warnAs} generated`, { file: path, advice: 'keep a copy away from the audit database: verification needs it' });
  });
  return value;
}

/** An Ed25519 private key in PEM; anything else stops the boot naming the setting. */
export function parseSigningKey(pem: string): AuditSigningKey {
  try {
    return auditSigningKey(createPrivateKey(pem));
  } catch {
    throw new ConfigError('TE_GATEWAY_AUDIT_SIGNING_KEY_FILE: expected an Ed25519 private key in PEM (PKCS#8)');
  }
}

/** An Ed25519 public key in PEM (SPKI). */
export function parsePublicKey(pem: string): KeyObject {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType === 'ed25519') return key;
  } catch {
    // refused below
  }
  throw new ConfigError('TE_GATEWAY_AUDIT_TRUSTED_KEYS: expected Ed25519 public keys in PEM');
}
