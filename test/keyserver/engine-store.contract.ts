import test from 'ava';
import type { Right } from '../../src/wire/acl.js';
import type { KeyRow, PrincipalRow } from '../../src/keyserver/engine/engine-model.js';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';

/** Makes a fresh, empty store. */
export type EngineStoreFactory = () => EngineStore;

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
    createdAt: 1_700_000_000_000,
    expired: false,
  };
}

/** The EngineStore contract (src/keyserver/engine/engine-store.port.ts), run against one store. */
export function engineStoreContract(name: string, make: EngineStoreFactory): void {
  const title = (behaviour: string) => `${name} engine store: ${behaviour}`;

  test(title('gives back a principal by name and by id, with its SRP verifier and optional fields'), (t) => {
    const store = make();
    const alice = principal('alice', { srp: { salt: Buffer.alloc(16, 1), verifier: Buffer.alloc(256, 2) }, displayName: 'Alice' });
    const ops = principal('ops', { kind: 'group', systemId: 1002, roles: [] });
    store.putPrincipal(alice);
    store.putPrincipal(ops);
    t.deepEqual(store.principalByName('alice'), alice);
    t.deepEqual(store.principalById(alice.principalId), alice);
    t.deepEqual(store.principalByName('ops'), ops);
    t.is(store.principalByName('nobody'), undefined);
    t.is(store.principalById('ffffffffffffffff'), undefined);
    store.putPrincipal({ ...alice, disabled: true, roles: ['admin'] });
    t.true(store.principalByName('alice')!.disabled);
    t.deepEqual(store.principalById(alice.principalId)!.roles, ['admin']);
    store.close();
  });

  test(title('keeps a service delegation list and the authority a principal was provisioned by'), (t) => {
    const store = make();
    const svc = principal('svc', { kind: 'service', roles: ['service'], delegates: ['alice', 'ops'] });
    const provisioned = principal('smith', { systemId: 1002, provisionedBy: 'ab'.repeat(32) });
    store.putPrincipal(svc);
    store.putPrincipal(provisioned);
    t.deepEqual(store.principalByName('svc'), svc);
    t.deepEqual(store.principalByName('smith'), provisioned);
    store.putPrincipal({ ...svc, delegates: [] });
    t.deepEqual(store.principalByName('svc')!.delegates, []);
    store.close();
  });

  test(title('hands out strictly increasing system ids above 1000'), (t) => {
    const store = make();
    const ids = [store.nextSystemId(), store.nextSystemId(), store.nextSystemId()];
    t.true(ids[0]! > 1000);
    t.deepEqual(ids, [ids[0]!, ids[0]! + 1, ids[0]! + 2]);
    store.close();
  });

  test(title('keeps a key with its ACL in order and its ACL revision, and replaces both on a later put'), (t) => {
    const store = make();
    const row = key('AAAAAAAAAAAAAAAAAAAAAA==', [
      ['bbbbbbbbbbbbbbbb', ['read', 'export']],
      ['0000000000000001', ['read']],
    ]);
    store.putKey(row);
    t.deepEqual(store.key(row.ttag), row);
    t.deepEqual([...store.key(row.ttag)!.acl.keys()], ['bbbbbbbbbbbbbbbb', '0000000000000001']);
    store.putKey({ ...row, acl: new Map([['0000000000000001', ['read', 'export']]]), aclRevision: 7 });
    t.deepEqual([...store.key(row.ttag)!.acl], [['0000000000000001', ['read', 'export']]]);
    t.is(store.key(row.ttag)!.aclRevision, 7);
    const labelled = { ...key('BBBBBBBBBBBBBBBBBBBBBB=='), label: 'backup', expiresAt: 1_800_000_000_000, expired: true };
    store.putKey(labelled);
    t.deepEqual(store.key(labelled.ttag), labelled);
    t.is(store.key('CCCCCCCCCCCCCCCCCCCCCC=='), undefined);
    store.close();
  });

  test(title('lists every delegated token, and ends those of one service and no other token'), (t) => {
    const store = make();
    const own = { tokenHash: 'h-own', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: undefined };
    const bySvc = { ...own, tokenHash: 'h-svc', actingFor: 'svc' };
    const byOther = { ...own, tokenHash: 'h-other', actingFor: 'other' };
    for (const row of [own, bySvc, byOther]) store.putToken(row);
    t.deepEqual(
      store.delegatedTokens().sort((a, b) => (a.tokenHash < b.tokenHash ? -1 : 1)),
      [byOther, bySvc],
      'every delegated token, and only those',
    );
    store.deleteTokensActingFor('svc');
    t.is(store.token('h-svc'), undefined);
    t.deepEqual(store.token('h-own'), own);
    t.deepEqual(store.token('h-other'), byOther);
    store.close();
  });

  test(title('keeps, forgets and sweeps tokens by their lifetime'), (t) => {
    const store = make();
    const forever = { tokenHash: 'h-forever', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: undefined };
    const soon = { tokenHash: 'h-soon', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: 5000 };
    const later = { tokenHash: 'h-later', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: 9000 };
    for (const row of [forever, soon, later]) store.putToken(row);
    t.deepEqual(store.token('h-forever'), forever);
    t.deepEqual(store.token('h-soon'), soon);
    t.is(store.deleteExpiredTokens(4999), 0);
    t.is(store.deleteExpiredTokens(5000), 1);
    t.is(store.token('h-soon'), undefined);
    t.deepEqual(store.token('h-later'), later);
    store.deleteToken('h-later');
    store.deleteToken('h-unknown');
    t.is(store.token('h-later'), undefined);
    t.deepEqual(store.token('h-forever'), forever);
    store.close();
  });

  test(title('keeps settings and overwrites them'), (t) => {
    const store = make();
    t.is(store.setting('decoySecret'), undefined);
    store.putSetting('decoySecret', 'one');
    store.putSetting('decoySecret', 'two');
    t.is(store.setting('decoySecret'), 'two');
    store.close();
  });

  test(title('runs an operation as one unit: its value back, its writes kept even when it then throws, a nested one joined'), (t) => {
    const store = make();
    const row = { tokenHash: 'h-unit', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1000, expiresAt: undefined };
    t.is(
      store.atomically(() => {
        store.putToken(row);
        return store.atomically(() => store.token('h-unit')?.tokenHash);
      }),
      'h-unit',
    );
    const refusal = new Error('refused after a write');
    t.is(
      t.throws(() =>
        store.atomically(() => {
          store.deleteToken('h-unit');
          throw refusal;
        }),
      ),
      refusal,
    );
    t.is(store.token('h-unit'), undefined, 'the write before the refusal landed');
    store.putSetting('after', 'usable');
    t.is(store.setting('after'), 'usable');
    store.close();
  });
}
