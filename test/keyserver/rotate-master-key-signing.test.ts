import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { readKeyFile, writeKeyFile } from '../../src/keyserver/at-rest/master-key-source.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { rotateMasterKey } from '../../src/keyserver/at-rest/rotate-master-key.js';
import type { KeyRow } from '../../src/keyserver/engine/engine-model.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/**
 * docs/spec.md §4.25 item 1: a signing key's private halves are sealed as any key material, so a
 * master-key rotation rewraps them too: after it, the new key alone opens every version, each the same
 * PKCS#8 that signs and verifies, and the old key opens nothing.
 */
test('rotate-master-key rewraps every version of a signing key: the same private keys open under the new master key alone', async (t) => {
  const dir = scratchDir('keygate-rotate-signing-');
  const dataPath = join(dir, 'ks.db');
  const file = join(dir, 'ks.master.key');
  const old = generateMasterKey();
  writeKeyFile(file, [old]);
  const pkcs8 = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' });
  const row: KeyRow = {
    ttag: 'c2lnbmluZy1yb3RhdGU=',
    nid: 0,
    material: pkcs8(),
    owner: 'a1a1a1a1a1a1a1a1',
    acl: new Map(),
    aclRevision: 0,
    laterVersions: [],
    tags: {},
    minVersion: 1,
    expired: false,
    disabled: false,
    createdAt: 1_700_000_000_000,
    signing: { type: 'ed25519', alg: 'EdDSA', exportable: false, published: true, jwtMaxLifetime: 600 },
  };
  const second = { version: 2, material: pkcs8(), createdAt: 1_700_000_100_000 };
  const before = new SqliteEngineStore(dataPath, new MasterKeyring([old]));
  await before.putKey(row);
  await before.putKeyVersion(row.ttag, second);
  await before.close();

  const rotation = await rotateMasterKey({ dataPath, file });
  t.deepEqual(rotation.oldIds, [old.id]);
  t.true(rotation.rows >= 2, 'both versions were rewrapped');

  const after = new SqliteEngineStore(dataPath, readKeyFile(file));
  const stored = (await after.key(row.ttag))!;
  t.deepEqual(stored.signing, row.signing);
  for (const [material, expected] of [
    [stored.material, row.material],
    [stored.laterVersions[0]!.material, second.material],
  ] as const) {
    t.deepEqual(material, expected);
    const signature = sign(null, Buffer.from('m'), { key: material, format: 'der', type: 'pkcs8' });
    t.true(verify(null, Buffer.from('m'), createPublicKey(createPrivateKey({ key: expected, format: 'der', type: 'pkcs8' })), signature));
  }
  await after.close();
  t.throws(
    () => new SqliteEngineStore(dataPath, new MasterKeyring([old])),
    { message: /which was not given/ },
    'the old key alone opens nothing',
  );
});
