import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { AUDIT_FILES, loadAuditIntegrity } from '../../src/app/audit-keys.js';
import { configFromEnv } from '../../src/app/config/from-env.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const secret = randomBytes(32).toString('base64');

test('the audit chain settings come from TE_GATEWAY_AUDIT_* variables, with defaults of 1000 entries and 60 s', (t) => {
  const dir = scratchDir('keygate-audit-env-');
  t.like(configFromEnv({}).auditIntegrity, { checkpointEvery: 1000, checkpointSeconds: 60, trustedKeys: [] });
  const keyFile = join(dir, 'mac.key');
  writeFileSync(keyFile, `${secret}\n`);
  const signing = join(dir, 'signing.pem');
  const pair = generateKeyPairSync('ed25519');
  writeFileSync(signing, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const trustedFile = join(dir, 'other.pem');
  writeFileSync(trustedFile, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
  const config = configFromEnv({
    TE_GATEWAY_AUDIT_KEY_FILE: keyFile,
    TE_GATEWAY_AUDIT_SIGNING_KEY_FILE: signing,
    TE_GATEWAY_AUDIT_TRUSTED_KEYS: trustedFile,
    TE_GATEWAY_AUDIT_WRITER: 'gw-eu-1',
    TE_GATEWAY_AUDIT_CHECKPOINT_EVERY: '50',
    TE_GATEWAY_AUDIT_CHECKPOINT_SECONDS: '5',
    TE_GATEWAY_DATA_DIR: dir,
  });
  t.like(config.auditIntegrity, { key: secret, writer: 'gw-eu-1', checkpointEvery: 50, checkpointSeconds: 5, dataDir: dir });
  t.is(config.auditIntegrity.trustedKeys.length, 1);
  const integrity = loadAuditIntegrity(config.auditIntegrity, new MemoryLogger(), () => 0);
  t.is(integrity.chain.writer, 'gw-eu-1');
  t.is(integrity.verifyKeys.publicKeys.size, 2, 'its own key and the trusted one');
});

test('a bad audit setting stops the boot with one line naming it, never echoing a key', (t) => {
  const bad: [Record<string, string>, RegExp][] = [
    [{ TE_GATEWAY_AUDIT_KEY: 'c2hvcnQ=' }, /^TE_GATEWAY_AUDIT_KEY: expected base64 of 32 bytes/],
    [
      { TE_GATEWAY_AUDIT_KEY: secret, TE_GATEWAY_AUDIT_KEY_FILE: '/etc/hostname' },
      /^TE_GATEWAY_AUDIT_KEY_FILE: set it or TE_GATEWAY_AUDIT_KEY/,
    ],
    [{ TE_GATEWAY_AUDIT_KEY_FILE: '/nonexistent/mac.key' }, /^TE_GATEWAY_AUDIT_KEY_FILE: cannot read/],
    [{ TE_GATEWAY_AUDIT_WRITER: 'gw one' }, /^TE_GATEWAY_AUDIT_WRITER:/],
    [{ TE_GATEWAY_AUDIT_CHECKPOINT_EVERY: '0' }, /^TE_GATEWAY_AUDIT_CHECKPOINT_EVERY:/],
    [{ TE_GATEWAY_AUDIT_CHECKPOINT_SECONDS: 'soon' }, /^TE_GATEWAY_AUDIT_CHECKPOINT_SECONDS:/],
  ];
  for (const [env, message] of bad) {
    const error = t.throws(() => configFromEnv(env));
    t.regex(error!.message, message);
    t.false(error!.message.includes(secret));
  }
  const rsa = join(scratchDir('keygate-audit-env-'), 'rsa.pem');
  writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const config = configFromEnv({ TE_GATEWAY_AUDIT_SIGNING_KEY_FILE: rsa });
  t.throws(() => loadAuditIntegrity(config.auditIntegrity, new MemoryLogger(), () => 0), {
    message: /^TE_GATEWAY_AUDIT_SIGNING_KEY_FILE: expected an Ed25519/,
  });
});

test('absent keys are generated into the data directory (0600) with a warning, kept across restarts, and the public key logged', (t) => {
  const dir = scratchDir('keygate-audit-keys-');
  const config = configFromEnv({ TE_GATEWAY_DATA_DIR: dir });
  const logger = new MemoryLogger();
  const first = loadAuditIntegrity(config.auditIntegrity, logger, () => 0);
  t.deepEqual(readdirSync(dir), [], 'nothing is written before the boot keeps it');
  first.keep();
  for (const name of Object.values(AUDIT_FILES)) t.is(statSync(join(dir, name)).mode & 0o777, 0o600, name);
  t.is(logger.lines.filter((line) => line.level === 'warn').length, 2, 'one warning per generated key');
  const boot = logger.lines.find((line) => line.message === 'audit log chained and checkpointed');
  t.like(boot?.fields, { writer: first.chain.writer, checkpointKeyId: first.signingKey.keyId });
  t.regex(String(boot?.fields?.checkpointPublicKey), /BEGIN PUBLIC KEY/);
  t.false(JSON.stringify(logger.lines).includes(readFileSync(join(dir, AUDIT_FILES.macKey), 'utf8').trim()), 'the MAC key is never logged');
  const again = loadAuditIntegrity(config.auditIntegrity, new MemoryLogger(), () => 0);
  t.is(again.chain.writer, first.chain.writer);
  t.is(again.signingKey.keyId, first.signingKey.keyId);
  t.deepEqual(again.verifyKeys.macKey, first.verifyKeys.macKey);
  const ephemeral = new MemoryLogger();
  loadAuditIntegrity(configFromEnv({}).auditIntegrity, ephemeral, () => 0);
  t.true(ephemeral.lines.some((line) => line.level === 'warn' && /this process only/.test(line.message)));
});
