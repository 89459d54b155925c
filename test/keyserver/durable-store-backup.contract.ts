import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import type { IdempotencyRow, KeyRow, PrincipalRow } from '../../src/keyserver/engine/engine-model.js';
import type { DurableEngineStore } from '../../src/keyserver/engine/engine-store.port.js';

/** Makes a fresh, empty store; every store one contract run makes shares one master keyring, whose current key id is `keyId`. */
export interface DurableStoreFactory {
  readonly keyId: string;
  open(): Promise<DurableEngineStore>;
}

const alice: PrincipalRow = {
  name: 'alice',
  kind: 'user',
  systemId: 1001,
  principalId: 'a1a1a1a1a1a1a1a1',
  disabled: false,
  roles: ['user', 'reader'],
  srp: { salt: Buffer.alloc(16, 1), verifier: Buffer.alloc(256, 2) },
  createdAt: 1_700_000_000_000,
};
const team: PrincipalRow = {
  name: 'team',
  kind: 'group',
  systemId: 1002,
  principalId: 't2t2t2t2t2t2t2t2',
  disabled: false,
  roles: [],
  createdAt: 1_700_000_000_000,
};
const key: KeyRow = {
  ttag: 'dGFnLW9uZQ==',
  nid: 427,
  material: Buffer.alloc(32, 7),
  owner: alice.principalId,
  acl: new Map([
    [team.principalId, ['read', 'export']],
    ['b3b3b3b3b3b3b3b3', ['read']],
  ]),
  // A grant's conditions travel with their entry (docs/spec.md §4.5b item 4).
  aclConditions: new Map([['b3b3b3b3b3b3b3b3', { context: { tenant: 'acme' } }]]),
  aclRevision: 2,
  laterVersions: [],
  tags: {},
  minVersion: 2,
  expired: false,
  // A disabled key stays disabled through a backup and its restore (docs/spec.md §4.6).
  disabled: true,
  createdAt: 1_700_000_000_000,
  label: 'payroll',
  rotationPeriod: 'P90D',
};
/** The versions a rotation added to the key. */
const laterVersions = [
  { version: 2, material: Buffer.alloc(32, 8), createdAt: 1_700_000_100_000 },
  { version: 3, material: Buffer.alloc(32, 9), createdAt: 1_700_000_200_000 },
];

/** The record of the request that created `key`: a retry after a restore must still find it. */
const created: IdempotencyRow = {
  principalId: alice.principalId,
  key: 'create-payroll',
  operation: 'generateKey',
  fingerprint: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
  answer: JSON.stringify({ ttag: key.ttag }),
  createdAt: 1_700_000_000_000,
};

/** Principals, a membership, a role, a key with its ACL and later versions, its idempotency record, a certificate, a setting and a token. */
async function fill(store: DurableEngineStore): Promise<void> {
  await store.atomically(async () => {
    await store.putPrincipal(alice);
    await store.putPrincipal(team);
    await store.putMembership(team.principalId, alice.principalId);
    await store.putRole({ name: 'reader', operations: ['keys.read'] });
    await store.putKey(key);
    for (const version of laterVersions) await store.putKeyVersion(key.ttag, version);
    // Its tags, aliases and last use (docs/spec.md §4.23 item 8: carried by a backup and restored with it).
    await store.putKeyTag(key.ttag, 'team', 'payments');
    await store.putKeyTag(key.ttag, 'cost-centre', '');
    await store.putAlias({ name: 'payroll', ttag: key.ttag, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_300_000 });
    await store.recordKeyUse(key.ttag, 1_700_000_400_000, 'decrypt');
    await store.putIdempotencyRecord(created);
    await store.putCertificate({
      id: 'ab'.repeat(32),
      pem: '-----BEGIN CERTIFICATE-----',
      role: 'authority',
      createdAt: 1_700_000_000_000,
    });
    await store.putSetting('parameter.maxPendingLogins', '77');
    await store.putToken({ tokenHash: 'token-hash', principalId: alice.principalId, issuedAt: 1_700_000_000_000, expiresAt: undefined });
  });
}

/** snapshot(), restore() and keyIdsInUse() of a store a backup is taken from and restored into. */
export function durableStoreBackupContract(name: string, stores: DurableStoreFactory): void {
  test(`${name}: a snapshot restored into an empty store reads back the same, sealed values opening as before`, async (t) => {
    const source = await stores.open();
    t.teardown(() => source.close());
    await fill(source);
    const systemId = await source.nextSystemId();
    const snapshot = await source.snapshot();
    t.is(snapshot.tables.principals.length, 2);
    t.is(snapshot.tables.key_acl.length, 2);
    t.deepEqual(await source.keyIdsInUse(), [stores.keyId]);

    const target = await stores.open();
    t.teardown(() => target.close());
    await target.restore(snapshot);
    t.deepEqual(await target.snapshot(), snapshot);
    const restoredKey = await target.key(key.ttag);
    t.deepEqual(restoredKey?.material, key.material);
    t.deepEqual([...(restoredKey?.acl ?? [])], [...key.acl]);
    t.deepEqual([...(restoredKey?.aclConditions ?? [])], [...key.aclConditions!]);
    t.is(restoredKey?.aclRevision, 2);
    t.is(restoredKey?.minVersion, 2);
    t.deepEqual(
      restoredKey?.laterVersions.map((v) => ({ version: v.version, material: v.material, createdAt: v.createdAt })),
      laterVersions,
    );
    t.is(restoredKey?.rotationPeriod, 'P90D', 'the rotation schedule comes along');
    t.like(restoredKey, { lastUsedAt: 1_700_000_400_000, lastUsedOperation: 'decrypt' }, 'the last use comes along');
    t.deepEqual(restoredKey?.tags, { 'cost-centre': '', team: 'payments' }, 'the tags come along');
    t.deepEqual(await target.alias('payroll'), {
      name: 'payroll',
      ttag: key.ttag,
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_300_000,
    });
    t.deepEqual((await target.principalByName('alice'))?.srp?.verifier, alice.srp?.verifier);
    t.deepEqual(await target.memberIdsOf(team.principalId), [alice.principalId]);
    t.deepEqual(await target.role('reader'), { name: 'reader', operations: ['keys.read'] });
    t.is(await target.setting('parameter.maxPendingLogins'), '77');
    t.is(await target.token('token-hash'), undefined, 'tokens are not in a snapshot');
    t.deepEqual(await target.idempotencyRecord(alice.principalId, 'create-payroll'), created, 'idempotency records are');
    t.is(await target.nextSystemId(), systemId + 1, 'the counters come along');
  });

  test(`${name}: a tombstone stays a tombstone and a key pending deletion stays pending through a snapshot and its restore (docs/spec.md §4.23 item 8)`, async (t) => {
    const source = await stores.open();
    t.teardown(() => source.close());
    const pending: KeyRow = { ...key, ttag: 'cGVuZGluZw==', disabled: false, deletionAt: 1_700_600_000_000 };
    const doomed: KeyRow = { ...key, ttag: 'ZG9vbWVk', disabled: false, deletionAt: 1_700_500_000_000 };
    await source.atomically(async () => {
      await source.putPrincipal(alice);
      await source.putKey(pending);
      await source.putKey(doomed);
      await source.putKeyVersion(doomed.ttag, laterVersions[0]!);
      await source.destroyKey(doomed.ttag, 1_700_500_000_001);
    });
    const target = await stores.open();
    t.teardown(() => target.close());
    await target.restore(await source.snapshot());
    const restoredPending = await target.key(pending.ttag);
    t.is(restoredPending?.deletionAt, pending.deletionAt);
    t.is(restoredPending?.deletedAt, undefined);
    t.deepEqual(restoredPending?.material, key.material, 'a pending key keeps its material');
    const tombstone = await target.key(doomed.ttag);
    t.is(tombstone?.deletedAt, 1_700_500_000_001);
    t.is(tombstone?.deletionAt, doomed.deletionAt);
    t.is(tombstone?.material.length, 0, 'no material comes back');
    t.deepEqual(tombstone?.laterVersions, []);
    t.deepEqual(await target.keyIdsInUse(), [stores.keyId], 'the tombstone holds nothing sealed');
    t.deepEqual(
      await target.unrecordedDestructions(1_700_500_000_001, 10),
      [{ ttag: doomed.ttag, deletedAt: 1_700_500_000_001 }],
      'its audit record, not yet stored, is still to be written',
    );
  });

  test(`${name}: a signing key comes back a signing key: its type, settings and each version's PKCS#8 (docs/spec.md §4.25 item 1)`, async (t) => {
    const source = await stores.open();
    t.teardown(() => source.close());
    const pkcs8 = (curve: string) => generateKeyPairSync('ec', { namedCurve: curve }).privateKey.export({ format: 'der', type: 'pkcs8' });
    const signing = { type: 'ec-p256', alg: 'ES256', exportable: true, published: true, jwtMaxLifetime: 900 } as const;
    const signer: KeyRow = { ...key, ttag: 'c2lnbmVy', nid: 0, disabled: false, material: pkcs8('P-256'), signing };
    const second = { version: 2, material: pkcs8('P-256'), createdAt: 1_700_000_100_000 };
    await source.atomically(async () => {
      await source.putPrincipal(alice);
      await source.putKey(signer);
      await source.putKeyVersion(signer.ttag, second);
    });
    const target = await stores.open();
    t.teardown(() => target.close());
    await target.restore(await source.snapshot());
    const restored = await target.key(signer.ttag);
    t.deepEqual(restored?.signing, signing);
    t.deepEqual(restored?.material, signer.material);
    t.deepEqual(restored?.laterVersions[0]?.material, second.material);
  });

  test(`${name}: a restore into a store that holds anything is refused, and nothing is written`, async (t) => {
    const source = await stores.open();
    t.teardown(() => source.close());
    await fill(source);
    const target = await stores.open();
    t.teardown(() => target.close());
    await target.putRole({ name: 'auditor', operations: ['audit.read'] });
    const before = await target.snapshot();
    await t.throwsAsync(target.restore(await source.snapshot()), { message: /not empty/ });
    t.deepEqual(await target.snapshot(), before);
  });

  test(`${name}: a snapshot asked for while an operation runs holds all of its writes, or none`, async (t) => {
    const store = await stores.open();
    t.teardown(() => store.close());
    let release = () => {};
    let reached = () => {};
    const gate = new Promise<void>((open) => (release = open));
    const halfway = new Promise<void>((done) => (reached = done));
    const operation = store.atomically(async () => {
      await store.putPrincipal(alice);
      reached();
      await gate;
      await store.putKey(key);
    });
    await halfway;
    const snapshot = store.snapshot();
    release();
    await operation;
    const { tables } = await snapshot;
    t.true(tables.principals.length === tables.keys.length, `${tables.principals.length} principals, ${tables.keys.length} keys`);
  });
}
