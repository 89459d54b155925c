import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import type { KeyRow, PrincipalRow } from '../../src/keyserver/engine/engine-model.js';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';
import type { Right } from '../../src/wire/acl.js';

/** Makes a fresh, empty store. */
export type EngineStoreFactory = () => EngineStore | Promise<EngineStore>;

function principal(name: string, extra: Partial<PrincipalRow> = {}): PrincipalRow {
  return {
    name,
    kind: 'user',
    systemId: 1001,
    principalId: Buffer.from(name.padEnd(8, '.')).subarray(0, 8).toString('hex'),
    disabled: false,
    roles: ['user'],
    createdAt: 1_700_000_000_000,
    ...extra,
  };
}

function key(ttag: string, acl: [string, Right[]][] = []): KeyRow {
  return {
    ttag,
    nid: 427,
    material: Buffer.alloc(32, 7),
    owner: 'aaaaaaaaaaaaaaaa',
    acl: new Map(acl),
    aclRevision: 0,
    laterVersions: [],
    tags: {},
    minVersion: 1,
    createdAt: 1_700_000_000_000,
    expired: false,
    disabled: false,
  };
}

/** The EngineStore contract (src/keyserver/engine/engine-store.port.ts), run against one store. */
export function engineStoreContract(name: string, make: EngineStoreFactory): void {
  const title = (behaviour: string) => `${name} engine store: ${behaviour}`;

  test(title('gives back a principal by name and by id, with its SRP verifier and optional fields'), async (t) => {
    const store = await make();
    const alice = principal('alice', { srp: { salt: Buffer.alloc(16, 1), verifier: Buffer.alloc(256, 2) }, displayName: 'Alice' });
    const ops = principal('ops', { kind: 'group', systemId: 1002, roles: [] });
    await store.putPrincipal(alice);
    await store.putPrincipal(ops);
    t.deepEqual(await store.principalByName('alice'), alice);
    t.deepEqual(await store.principalById(alice.principalId), alice);
    t.deepEqual(await store.principalByName('ops'), ops);
    t.is(await store.principalByName('nobody'), undefined);
    t.is(await store.principalById('ffffffffffffffff'), undefined);
    await store.putPrincipal({ ...alice, disabled: true, roles: ['admin'] });
    t.true((await store.principalByName('alice'))!.disabled);
    t.deepEqual((await store.principalById(alice.principalId))!.roles, ['admin']);
    await store.close();
  });

  test(title('keeps a service delegation list and the authority a principal was provisioned by'), async (t) => {
    const store = await make();
    const svc = principal('svc', { kind: 'service', roles: ['service'], delegates: ['alice', 'ops'] });
    const provisioned = principal('smith', { systemId: 1002, provisionedBy: 'ab'.repeat(32) });
    await store.putPrincipal(svc);
    await store.putPrincipal(provisioned);
    t.deepEqual(await store.principalByName('svc'), svc);
    t.deepEqual(await store.principalByName('smith'), provisioned);
    await store.putPrincipal({ ...svc, delegates: [] });
    t.deepEqual((await store.principalByName('svc'))!.delegates, []);
    await store.close();
  });

  test(title('hands out strictly increasing system ids above 1000'), async (t) => {
    const store = await make();
    const ids = [await store.nextSystemId(), await store.nextSystemId(), await store.nextSystemId()];
    t.true(ids[0]! > 1000);
    t.deepEqual(ids, [ids[0]!, ids[0]! + 1, ids[0]! + 2]);
    await store.close();
  });

  test(title('keeps a key with its ACL in order and its ACL revision, and replaces both on a later put'), async (t) => {
    const store = await make();
    const row = key('AAAAAAAAAAAAAAAAAAAAAA==', [
      ['bbbbbbbbbbbbbbbb', ['read', 'export']],
      ['0000000000000001', ['read']],
    ]);
    await store.putKey(row);
    t.deepEqual(await store.key(row.ttag), row);
    t.deepEqual([...(await store.key(row.ttag))!.acl.keys()], ['bbbbbbbbbbbbbbbb', '0000000000000001']);
    await store.putKey({ ...row, acl: new Map([['0000000000000001', ['read', 'export']]]), aclRevision: 7 });
    t.deepEqual([...(await store.key(row.ttag))!.acl], [['0000000000000001', ['read', 'export']]]);
    t.is((await store.key(row.ttag))!.aclRevision, 7);
    const labelled = { ...key('BBBBBBBBBBBBBBBBBBBBBB=='), label: 'backup', expiresAt: 1_800_000_000_000, expired: true };
    await store.putKey(labelled);
    t.deepEqual(await store.key(labelled.ttag), labelled);
    t.is(await store.key('CCCCCCCCCCCCCCCCCCCCCC=='), undefined);
    // A key's state (docs/spec.md §4.6): disabled, then enabled again, each read back as written.
    await store.putKey({ ...row, disabled: true });
    t.true((await store.key(row.ttag))!.disabled);
    await store.putKey({ ...row, disabled: false });
    t.false((await store.key(row.ttag))!.disabled);
    await store.close();
  });

  test(title("keeps an ACL entry's conditions with it, replaces and removes them with the entry, and reads a page the same"), async (t) => {
    const store = await make();
    // docs/spec.md §4.5b item 4; `__proto__` is a context name like any other.
    const conditions = { context: { tenant: 'acme', __proto__: 'x', 'a/b': 'ü' } };
    const copied = JSON.parse(JSON.stringify(conditions)) as typeof conditions;
    const row = {
      ...key('Y29uZGl0aW9ucw==', [
        ['bbbbbbbbbbbbbbbb', ['encrypt', 'decrypt']],
        ['0000000000000001', ['read']],
      ]),
      aclConditions: new Map([['bbbbbbbbbbbbbbbb', JSON.parse('{"context":{"tenant":"acme","__proto__":"x","a/b":"ü"}}')]]),
    };
    await store.putKey(row);
    const stored = (await store.key(row.ttag))!;
    t.deepEqual(stored, row);
    t.deepEqual(Object.keys(stored.aclConditions!.get('bbbbbbbbbbbbbbbb')!.context).sort(), ['__proto__', 'a/b', 'tenant']);
    t.false(stored.aclConditions!.has('0000000000000001'), 'an entry without conditions has none');
    t.deepEqual(
      (await store.keyPage({ tags: [], now: 1_800_000_000_000, limit: 10, ttags: [row.ttag] }))[0],
      stored,
      'a page reads them too',
    );
    await store.putKey({ ...row, aclConditions: new Map([['0000000000000001', copied]]), aclRevision: 1 });
    t.deepEqual([...(await store.key(row.ttag))!.aclConditions!.keys()], ['0000000000000001'], 'replaced with the entries');
    await store.putKey({ ...row, aclConditions: new Map(), aclRevision: 2 });
    t.is((await store.key(row.ttag))!.aclConditions?.size ?? 0, 0, 'removed');
    await store.close();
  });

  test(title("keeps a signing key's type and settings and its PKCS#8 material, and changes what a later put changes"), async (t) => {
    const store = await make();
    const pkcs8 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'der', type: 'pkcs8' });
    const signing = { type: 'ec-p256', alg: 'ES256', exportable: false, published: false, jwtMaxLifetime: 600 } as const;
    const row = { ...key('c2lnbmluZ2tleQ=='), nid: 0, material: pkcs8, signing };
    await store.putKey(row);
    t.deepEqual(await store.key(row.ttag), row);
    t.true((await store.key(row.ttag))!.material.equals(pkcs8));
    await store.putKey({ ...row, signing: { ...signing, published: true }, aclRevision: 1 });
    t.deepEqual((await store.key(row.ttag))!.signing, { ...signing, published: true });
    t.is((await store.key(key('AAAAAAAAAAAAAAAAAAAAAA==').ttag))?.signing, undefined, 'an aes key has no signing settings');
    await store.close();
  });

  test(title("adds a key's versions in order and keeps them, with the minimum version, through later puts of the key"), async (t) => {
    const store = await make();
    const row = key('dmVyc2lvbnM=');
    await store.putKey(row);
    t.deepEqual((await store.key(row.ttag))!.laterVersions, []);
    t.is((await store.key(row.ttag))!.minVersion, 1);
    await store.putKeyVersion(row.ttag, { version: 2, material: Buffer.alloc(32, 8), createdAt: 1_700_000_100_000 });
    await store.putKeyVersion(row.ttag, { version: 3, material: Buffer.alloc(32, 9), createdAt: 1_700_000_200_000 });
    await store.putKey({ ...row, minVersion: 2, aclRevision: 1 });
    const stored = (await store.key(row.ttag))!;
    t.is(stored.minVersion, 2);
    t.true(stored.material.equals(Buffer.alloc(32, 7)), 'version 1 is the key’s own material');
    t.deepEqual(
      stored.laterVersions.map((v) => [v.version, v.createdAt, v.material.toString('hex')]),
      [
        [2, 1_700_000_100_000, Buffer.alloc(32, 8).toString('hex')],
        [3, 1_700_000_200_000, Buffer.alloc(32, 9).toString('hex')],
      ],
    );
    await t.throwsAsync(
      store.putKeyVersion(row.ttag, { version: 3, material: Buffer.alloc(32, 1), createdAt: 0 }),
      { any: true },
      'a stored version is never replaced',
    );
    t.true((await store.key(row.ttag))!.laterVersions[1]!.material.equals(Buffer.alloc(32, 9)));
    await store.close();
  });

  test(title('lists every delegated token, and ends those of one service and no other token'), async (t) => {
    const store = await make();
    const own = { tokenHash: 'h-own', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: undefined };
    const bySvc = { ...own, tokenHash: 'h-svc', actingFor: 'svc' };
    const byOther = { ...own, tokenHash: 'h-other', actingFor: 'other' };
    for (const row of [own, bySvc, byOther]) await store.putToken(row);
    t.deepEqual(
      (await store.delegatedTokens()).sort((a, b) => (a.tokenHash < b.tokenHash ? -1 : 1)),
      [byOther, bySvc],
      'every delegated token, and only those',
    );
    await store.deleteTokensActingFor('svc');
    t.is(await store.token('h-svc'), undefined);
    t.deepEqual(await store.token('h-own'), own);
    t.deepEqual(await store.token('h-other'), byOther);
    await store.close();
  });

  test(title('keeps, forgets and sweeps tokens by their lifetime'), async (t) => {
    const store = await make();
    const forever = { tokenHash: 'h-forever', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: undefined };
    const soon = { tokenHash: 'h-soon', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: 5000 };
    const later = { tokenHash: 'h-later', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: 9000 };
    for (const row of [forever, soon, later]) await store.putToken(row);
    t.deepEqual(await store.token('h-forever'), forever);
    t.deepEqual(await store.token('h-soon'), soon);
    t.is(await store.deleteExpiredTokens(4999), 0);
    t.is(await store.deleteExpiredTokens(5000), 1);
    t.is(await store.token('h-soon'), undefined);
    t.deepEqual(await store.token('h-later'), later);
    await store.deleteToken('h-later');
    await store.deleteToken('h-unknown');
    t.is(await store.token('h-later'), undefined);
    t.deepEqual(await store.token('h-forever'), forever);
    await store.close();
  });

  test(title('keeps settings and overwrites them'), async (t) => {
    const store = await make();
    t.is(await store.setting('decoySecret'), undefined);
    await store.putSetting('decoySecret', 'one');
    await store.putSetting('decoySecret', 'two');
    t.is(await store.setting('decoySecret'), 'two');
    await store.close();
  });

  test(title('runs an operation as one unit: its value back, its writes kept even when it then throws, a nested one joined'), async (t) => {
    const store = await make();
    const row = { tokenHash: 'h-unit', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: undefined };
    t.is(
      await store.atomically(async () => {
        await store.putToken(row);
        return await store.atomically(async () => (await store.token('h-unit'))?.tokenHash);
      }),
      'h-unit',
    );
    const refusal = new Error('refused after a write');
    t.is(
      await t.throwsAsync(
        async () =>
          await store.atomically(async () => {
            await store.deleteToken('h-unit');
            throw refusal;
          }),
      ),
      refusal,
    );
    t.is(await store.token('h-unit'), undefined, 'the write before the refusal landed');
    await store.putSetting('after', 'usable');
    t.is(await store.setting('after'), 'usable');
    await store.close();
  });
}
