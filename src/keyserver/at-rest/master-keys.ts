import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** One master key: 32 bytes for AES-256-GCM, named by an id derived from it (never the key itself). */
export interface MasterKey {
  readonly id: string;
  readonly key: Buffer;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The id a key is known by in the store and in output: the first 8 bytes of SHA-256 over it, hex. */
export function masterKeyId(key: Buffer): string {
  return createHash('sha256').update('keygate master key id\0').update(key).digest('hex').slice(0, 16);
}

export function masterKeyOf(key: Buffer): MasterKey {
  if (key.length !== 32) throw new Error(`a master key is 32 bytes, got ${key.length}`);
  return { id: masterKeyId(key), key: Buffer.from(key) };
}

export function generateMasterKey(): MasterKey {
  return masterKeyOf(randomBytes(32));
}

/**
 * The master keys a store can use: the first seals every new value, every one of them opens the
 * values sealed under it (the older ones stay readable until a rotation has rewrapped every row).
 * A sealed value is iv (12) | GCM tag (16) | ciphertext; its additional data names the row and column
 * it belongs to, so a value copied to another row does not open.
 */
export class MasterKeyring {
  readonly #keys: ReadonlyMap<string, MasterKey>;
  readonly current: MasterKey;

  constructor(keys: readonly MasterKey[]) {
    if (keys.length === 0) throw new Error('a master keyring needs at least one key');
    this.current = keys[0]!;
    this.#keys = new Map(keys.map((key) => [key.id, key]));
  }

  get ids(): string[] {
    return [...this.#keys.keys()];
  }

  key(id: string): MasterKey {
    const key = this.#keys.get(id);
    if (key === undefined) throw new Error(`no master key ${id}`);
    return key;
  }

  has(id: string): boolean {
    return this.#keys.has(id);
  }

  seal(plaintext: Buffer, context: string): { keyId: string; sealed: Buffer } {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { keyId: this.current.id, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]) };
  }

  open(keyId: string, sealed: Buffer, context: string): Buffer {
    const master = this.#keys.get(keyId);
    if (master === undefined) throw new Error(`a stored value is sealed under master key ${keyId}, which was not given`);
    const decipher = createDecipheriv('aes-256-gcm', master.key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new Error(`a stored value does not open under master key ${keyId} (altered, or moved from another row)`);
    }
  }
}
