import { constants, createHash, type KeyObject, privateEncrypt, publicDecrypt, timingSafeEqual } from 'node:crypto';

/**
 * RSA signatures over a digest the caller already took (docs/spec.md §4.25 item 3): node:crypto signs
 * only what it hashes itself, so the encodings of RFC 8017 are made here and the raw RSA operation is
 * node's (`privateEncrypt`, `publicDecrypt`). A verification never throws: a malformed signature is false.
 */
export type HashName = 'sha256' | 'sha384' | 'sha512';

/** The DER DigestInfo prefix of each hash (RFC 8017 §9.2 note 1). */
const DIGEST_INFO: Readonly<Record<HashName, Buffer>> = {
  sha256: Buffer.from('3031300d060960864801650304020105000420', 'hex'),
  sha384: Buffer.from('3041300d060960864801650304020205000430', 'hex'),
  sha512: Buffer.from('3051300d060960864801650304020305000440', 'hex'),
};

/** RSASSA-PKCS1-v1_5 signature of a digest (RFC 8017 §8.2.1): the padding is node's, over DigestInfo || digest. */
export function pkcs1SignDigest(key: KeyObject, hash: HashName, digest: Uint8Array): Buffer {
  return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([DIGEST_INFO[hash], digest]));
}

/** RSASSA-PKCS1-v1_5 verification of a digest (RFC 8017 §8.2.2), compared in constant time. */
export function pkcs1VerifyDigest(key: KeyObject, hash: HashName, digest: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== modulusBytes(key)) return false;
  const expected = Buffer.concat([DIGEST_INFO[hash], digest]);
  try {
    const recovered = publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, signature);
    return recovered.length === expected.length && timingSafeEqual(recovered, expected);
  } catch {
    return false;
  }
}

/**
 * RSASSA-PSS signature of a digest (RFC 8017 §8.1.1): EMSA-PSS-ENCODE (§9.1.1) with MGF1 of the same
 * hash and a salt as long as the hash (`salt`, fresh random bytes), then the raw RSA operation.
 */
export function pssSignDigest(key: KeyObject, hash: HashName, digest: Uint8Array, salt: Uint8Array): Buffer {
  const k = modulusBytes(key);
  const emBits = modulusBits(key) - 1;
  const emLen = Math.ceil(emBits / 8);
  const hLen = digest.length;
  const h = createHash(hash).update(Buffer.alloc(8)).update(digest).update(salt).digest();
  const db = Buffer.alloc(emLen - hLen - 1);
  db[emLen - salt.length - hLen - 2] = 0x01;
  Buffer.from(salt).copy(db, db.length - salt.length);
  const masked = xor(db, mgf1(hash, h, db.length));
  masked[0]! &= 0xff >> (8 * emLen - emBits);
  const em = Buffer.concat([Buffer.alloc(k - emLen), masked, h, Buffer.from([0xbc])]);
  return privateEncrypt({ key, padding: constants.RSA_NO_PADDING }, em);
}

/** RSASSA-PSS verification of a digest (RFC 8017 §8.1.2, EMSA-PSS-VERIFY §9.1.2), salt as long as the hash. */
export function pssVerifyDigest(key: KeyObject, hash: HashName, digest: Uint8Array, signature: Uint8Array): boolean {
  const k = modulusBytes(key);
  if (signature.length !== k) return false;
  let decrypted: Buffer;
  try {
    decrypted = publicDecrypt({ key, padding: constants.RSA_NO_PADDING }, signature);
  } catch {
    return false;
  }
  const emBits = modulusBits(key) - 1;
  const emLen = Math.ceil(emBits / 8);
  const hLen = digest.length;
  if (decrypted.length !== k || decrypted.subarray(0, k - emLen).some((byte) => byte !== 0)) return false;
  const em = decrypted.subarray(k - emLen);
  if (em[emLen - 1] !== 0xbc) return false;
  const masked = em.subarray(0, emLen - hLen - 1);
  const h = em.subarray(emLen - hLen - 1, emLen - 1);
  if ((masked[0]! & ~(0xff >> (8 * emLen - emBits)) & 0xff) !== 0) return false;
  const db = xor(masked, mgf1(hash, h, masked.length));
  db[0]! &= 0xff >> (8 * emLen - emBits);
  const separator = emLen - 2 * hLen - 2;
  if (db.subarray(0, separator).some((byte) => byte !== 0) || db[separator] !== 0x01) return false;
  const salt = db.subarray(db.length - hLen);
  const expected = createHash(hash).update(Buffer.alloc(8)).update(digest).update(salt).digest();
  return timingSafeEqual(expected, h);
}

/** MGF1 (RFC 8017 §B.2.1). */
function mgf1(hash: HashName, seed: Uint8Array, length: number): Buffer {
  const blocks: Buffer[] = [];
  let produced = 0;
  for (let counter = 0; produced < length; counter++) {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    const block = createHash(hash).update(seed).update(c).digest();
    blocks.push(block);
    produced += block.length;
  }
  return Buffer.concat(blocks).subarray(0, length);
}

function xor(a: Uint8Array, b: Uint8Array): Buffer {
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! ^ b[i]!;
  return out;
}

function modulusBits(key: KeyObject): number {
  return key.asymmetricKeyDetails?.modulusLength ?? 0;
}

function modulusBytes(key: KeyObject): number {
  return Math.ceil(modulusBits(key) / 8);
}
