import { constants, createHash, randomBytes, verify } from 'node:crypto';
import test from 'ava';
import { ecPartsOf, type SigningKeyObjects, signInput, verifyInput } from '../../../src/keyserver/model/signature-crypto.js';
import { generateSigningKey, privateKeyOf, publicKeyOf } from '../../../src/keyserver/model/signing-keys.js';
import { hashOfAlg, type SigningAlg, type SigningKeyType } from '../../../src/wire/key-type.js';

/** docs/spec.md §4.25 item 3: each algorithm's signature of a message and of its digest, checked by node:crypto alone. */
const CASES: [SigningKeyType, SigningAlg][] = [
  ['ec-p256', 'ES256'],
  ['ec-p384', 'ES384'],
  ['ed25519', 'EdDSA'],
  ['rsa-2048', 'RS256'],
  ['rsa-2048', 'RS384'],
  ['rsa-2048', 'RS512'],
  ['rsa-2048', 'PS256'],
  ['rsa-2048', 'PS384'],
  ['rsa-2048', 'PS512'],
];

const keysOfType = new Map<SigningKeyType, Promise<SigningKeyObjects>>();
function keysOf(type: SigningKeyType): Promise<SigningKeyObjects> {
  let made = keysOfType.get(type);
  if (made === undefined) {
    made = generateSigningKey(type).then((pkcs8) => {
      const privateKey = privateKeyOf(pkcs8);
      const ec = ecPartsOf(privateKey);
      return { privateKey, publicKey: publicKeyOf(pkcs8), ...(ec === undefined ? {} : { ec }) };
    });
    keysOfType.set(type, made);
  }
  return made;
}

/** How node:crypto verifies a JOSE signature of `alg` over a message. */
function nodeVerifies(keys: SigningKeyObjects, alg: SigningAlg, message: Uint8Array, signature: Uint8Array): boolean {
  const hash = hashOfAlg(alg)?.name ?? null;
  const options = alg.startsWith('ES')
    ? { dsaEncoding: 'ieee-p1363' as const }
    : alg.startsWith('PS')
      ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
      : {};
  return verify(hash, message, { key: keys.publicKey, ...options }, signature);
}

for (const [type, alg] of CASES) {
  test(`${alg}: a message's and its digest's signatures verify with node:crypto; a changed one does not`, async (t) => {
    const keys = await keysOf(type);
    const message = Buffer.from(`a message for ${alg}`);
    const salt = () => randomBytes(hashOfAlg(alg)?.length ?? 0);
    const bySelf = signInput(keys, alg, { message }, salt);
    t.true(nodeVerifies(keys, alg, message, bySelf), 'message');
    t.true(verifyInput(keys, alg, { message }, bySelf));
    const hash = hashOfAlg(alg);
    if (hash !== undefined) {
      const digest = createHash(hash.name).update(message).digest();
      const byDigest = signInput(keys, alg, { digest }, salt);
      t.true(nodeVerifies(keys, alg, message, byDigest), 'digest');
      t.true(verifyInput(keys, alg, { digest }, byDigest));
      t.true(verifyInput(keys, alg, { digest }, bySelf), 'a message signature verifies by its digest');
      t.false(verifyInput(keys, alg, { digest: createHash(hash.name).update('other').digest() }, byDigest));
    }
    const tampered = Buffer.from(bySelf);
    tampered[5]! ^= 1;
    t.false(verifyInput(keys, alg, { message }, tampered));
    t.false(verifyInput(keys, alg, { message }, bySelf.subarray(1)), 'wrong length');
    t.false(verifyInput(keys, alg, { message: Buffer.from('another') }, bySelf));
  });
}
