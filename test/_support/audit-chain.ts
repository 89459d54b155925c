import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { AuditChain, auditSigningKey, type AuditChainOptions, type AuditSigningKey } from '../../src/domain/audit/audit-chain.js';

/** Keys a deployment shares: the MAC key and one checkpoint signing key. */
export interface AuditTestKeys {
  readonly macKey: Buffer;
  readonly signingKey: AuditSigningKey;
}

export function auditTestKeys(): AuditTestKeys {
  return { macKey: randomBytes(32), signingKey: auditSigningKey(generateKeyPairSync('ed25519').privateKey) };
}

/** A chain for one writer under `keys` (fresh ones by default), on the real clock unless told. */
export function testChain(writer: string, keys: AuditTestKeys = auditTestKeys(), options: Partial<AuditChainOptions> = {}): AuditChain {
  return new AuditChain({ writer, macKey: keys.macKey, signingKey: keys.signingKey, now: () => Date.now(), ...options });
}

/** The trusted key map a verifier takes. */
export function trusted(keys: AuditTestKeys): Map<string, AuditSigningKey['publicKey']> {
  return new Map([[keys.signingKey.keyId, keys.signingKey.publicKey]]);
}
