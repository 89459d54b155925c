import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { FaultyKeyServer } from '../_support/faulty-key-server.js';
import { startFaultyGateway, startGateway } from '../_support/gateway.js';
import { HOSTILE } from '../_support/hostile-text.js';
import { seededDaemonKeyServer } from '../_support/seeded-daemon.js';
import { testUnless } from '../_support/skip.js';
import { type SpecWrapped, specClientKey, specUnwrap } from '../_support/spec-unwrap.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/**
 * docs/spec.md §4.5a item 7: batches of data keys and of their openings, answered as the batches of
 * §4.22 item 8, one key-server round trip and one audit record (§9.1 `items`, `failures`, `keys`) each.
 * Every wrap is opened by the spec's client of test/_support/spec-unwrap.ts, nothing of src/.
 */

const INFO = 'keygate datakey v1';
type Item = {
  ok: boolean;
  error?: { code: string; detail: string };
  wrapped?: SpecWrapped;
  blob?: string;
  keyLen?: number;
  version?: number;
};

const outcomes = (items: Item[]) => items.map((item) => (item.ok ? `ok ${item.keyLen} v${item.version}` : item.error!.code));

/** The data keys of a batch's answer, each unwrapped with the client key its item sent. */
function unwrapped(items: Item[], clients: ReturnType<typeof specClientKey>[]): Buffer[] {
  return items.map((item, index) => specUnwrap(item.wrapped!, clients[index]!.ecdh, INFO));
}

/** Opens `blobs` as one batch, each to a fresh client key, and answers the data keys (a failure throws). */
async function openAll(session: ApiSession, ttag: string, blobs: string[]): Promise<Buffer[]> {
  const clients = blobs.map(() => specClientKey());
  const reply = await session.post('/api/crypto/datakey/open', {
    items: blobs.map((blob, index) => ({ ttag, blob, clientPubKey: clients[index]!.publicKey })),
  });
  if (reply.status !== 200 || !(reply.body.items as Item[]).every((item) => item.ok)) throw new Error(`open: ${reply.text}`);
  return unwrapped(reply.body.items, clients);
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: a batch makes each item's data key alone; a denied or expired key fails its item; the openings answer the same keys; one record`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice);
      t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`)).status, 200);
      const { ttag: foreign } = await createKey(await signIn(gw, 'bob'));
      const { ttag: expired } = await createKey(alice);
      t.is((await alice.post(`/api/keys/${pathTtag(expired)}/expire`)).status, 200);
      const clients = [specClientKey(), specClientKey(), specClientKey(), specClientKey()];

      const made = await alice.post('/api/crypto/datakey', {
        items: [
          { ttag, clientPubKey: clients[0]!.publicKey },
          { ttag: foreign, clientPubKey: clients[1]!.publicKey },
          { ttag: expired, clientPubKey: clients[2]!.publicKey },
          { ttag, keyLen: 16, clientPubKey: clients[3]!.publicKey },
          { ttag },
        ],
      });

      t.is(made.status, 200, made.text);
      const items = made.body.items as Item[];
      t.deepEqual(outcomes(items), ['ok 32 v2', 'ACL_DENIED', 'KEY_EXPIRED', 'ok 16 v2', 'ok 32 v2']);
      t.deepEqual(Object.keys(items[0]!).sort(), ['blob', 'keyLen', 'ok', 'version', 'wrapped']);
      t.deepEqual(
        Object.keys(items[4]!).sort(),
        ['blob', 'keyLen', 'ok', 'version'],
        'without clientPubKey an item answers the blob alone',
      );
      t.deepEqual(Object.keys(items[1]!).sort(), ['error', 'ok']);
      const keys = [specUnwrap(items[0]!.wrapped!, clients[0]!.ecdh, INFO), specUnwrap(items[3]!.wrapped!, clients[3]!.ecdh, INFO)];
      t.deepEqual(
        keys.map((key) => key.length),
        [32, 16],
      );
      t.notDeepEqual(keys[0]!.subarray(0, 16), keys[1]!);

      const single = await alice.post('/api/crypto/datakey', { ttag, clientPubKey: clients[0]!.publicKey });
      const singleKey = specUnwrap(single.body.wrapped, clients[0]!.ecdh, INFO);
      const blobs = [items[0]!.blob!, items[3]!.blob!, single.body.blob as string];
      t.deepEqual(await openAll(alice, ttag, blobs), [...keys, singleKey], 'a batch opens the blobs to the data keys they were made with');
      const client = specClientKey();
      const openedAlone = await alice.post('/api/crypto/datakey/open', { ttag, blob: items[0]!.blob, clientPubKey: client.publicKey });
      t.deepEqual(specUnwrap(openedAlone.body.wrapped, client.ecdh, INFO), keys[0], "the single route opens a batch's blob alike");
      const lastBlob = items[4]!.blob!;
      const openClients = [specClientKey(), specClientKey()];
      const reopened = await alice.post('/api/crypto/datakey/open', {
        items: [
          { ttag: foreign, blob: lastBlob, clientPubKey: openClients[0]!.publicKey },
          { ttag, blob: lastBlob, clientPubKey: openClients[1]!.publicKey },
          { ttag: expired, blob: lastBlob, clientPubKey: openClients[1]!.publicKey },
          { ttag, blob: Buffer.from(lastBlob, 'base64').subarray(1).toString('base64'), clientPubKey: openClients[1]!.publicKey },
        ],
      });
      t.is(reopened.status, 200, reopened.text);
      t.deepEqual(outcomes(reopened.body.items), ['ACL_DENIED', 'ok 32 v2', 'KEY_EXPIRED', 'DECRYPT_FAILED']);

      // docs/spec.md §4.5b: an item's context is bound to its blob alone, and the record names a batch's distinct contexts.
      const tenant = { tenant: 'acme' };
      const bound = await alice.post('/api/crypto/datakey', {
        items: [
          { ttag, context: tenant },
          { ttag, context: { tenant: 'other' } },
          { ttag, context: tenant },
        ],
      });
      t.deepEqual(outcomes(bound.body.items), ['ok 32 v2', 'ok 32 v2', 'ok 32 v2']);
      const boundBlob = bound.body.items[0].blob as string;
      const boundOpened = await alice.post('/api/crypto/datakey/open', {
        items: [
          { ttag, blob: boundBlob, clientPubKey: client.publicKey, context: tenant },
          { ttag, blob: boundBlob, clientPubKey: client.publicKey },
          { ttag, blob: bound.body.items[1].blob, clientPubKey: client.publicKey, context: tenant },
        ],
      });
      t.deepEqual(outcomes(boundOpened.body.items), ['ok 32 v2', 'DECRYPT_FAILED', 'DECRYPT_FAILED']);

      const auditor = await signIn(gw, 'audra');
      const records = (await auditor.get('/api/audit?operation=crypto.datakey&limit=10')).body.items;
      const batch = records.find((record: { items?: number }) => record.items === 5);
      t.like(batch, { principal: 'alice', outcome: 'ok', status: 200, items: 5, failures: 2 });
      t.deepEqual(batch.keys, [{ ttag, version: 2 }, { ttag: foreign }, { ttag: expired }]);
      t.false('object' in batch, 'a batch over several keys names none');
      t.false('contexts' in batch, 'a batch without contexts names none');
      t.like(
        records.find((record: { items?: number }) => record.items === 3),
        { failures: 0, object: ttag, contexts: [tenant, { tenant: 'other' }] },
      );
      const opens = (await auditor.get('/api/audit?operation=crypto.datakey.open&limit=10')).body.items;
      const openBatches = opens.filter((record: { items?: number }) => record.items !== undefined);
      t.is(openBatches.length, 3, 'one record for each batch of openings');
      t.like(
        openBatches.find((record: { items: number; contexts?: unknown }) => record.items === 3 && record.contexts === undefined),
        { failures: 0, object: ttag, keys: [{ ttag, version: 2 }] },
      );
      t.like(
        openBatches.find((record: { contexts?: unknown }) => record.contexts !== undefined),
        { items: 3, failures: 2, contexts: [tenant] },
      );
      const failing = openBatches.find((record: { items: number }) => record.items === 4);
      t.like(failing, { outcome: 'ok', failures: 3 });
      t.deepEqual(failing.keys, [{ ttag: foreign }, { ttag, version: 2 }, { ttag: expired }], 'a failed opening names its key alone');
      const written = JSON.stringify(records) + JSON.stringify(opens) + JSON.stringify(gw.logger.lines);
      for (const key of [...keys, singleKey]) t.false(written.includes(key.toString('base64')), 'no data key is audited or logged');
      for (const blob of blobs) t.false(written.includes(blob), 'no blob is audited or logged');
    },
  );
}

test('a batch of more than 1000 items or none is 400; an item off its schema is 400 naming items.<n>.<field>; a bad ttag or clientPubKey, or an unmet grant condition, fails its item alone; an alias is recorded', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const blob = (await alice.post('/api/crypto/datakey', { ttag })).body.blob as string;
  const clientPubKey = specClientKey().publicKey;
  const cases: [string, object, string][] = [
    ['/api/crypto/datakey', { items: Array.from({ length: 1001 }, () => ({ ttag })) }, 'items: at most 1000 items'],
    [
      '/api/crypto/datakey/open',
      { items: Array.from({ length: 1001 }, () => ({ ttag, blob, clientPubKey })) },
      'items: at most 1000 items',
    ],
    ['/api/crypto/datakey', { items: [] }, 'items: at least one item'],
    ['/api/crypto/datakey/open', { items: [] }, 'items: at least one item'],
    ['/api/crypto/datakey', { items: [{ ttag }, { ttag, keyLen: 20 }] }, 'items.1.keyLen'],
    ['/api/crypto/datakey', { items: [{ ttag, clientPubKey: 'not base64!' }] }, 'items.0.clientPubKey'],
    ['/api/crypto/datakey', { items: [{ ttag, extra: 1 }] }, 'items.0'],
    [
      '/api/crypto/datakey/open',
      {
        items: [
          { ttag, blob, clientPubKey },
          { ttag, blob },
        ],
      },
      'items.1.clientPubKey',
    ],
    ['/api/crypto/datakey/open', { items: [{ ttag, clientPubKey }] }, 'items.0.blob'],
    ['/api/crypto/datakey', { items: [{ ttag }, { ttag, context: { tenant: 7 } }] }, 'items.1.context.tenant'],
    ['/api/crypto/datakey/open', { items: [{ ttag, blob, clientPubKey, context: 'acme' }] }, 'items.0.context'],
    ['/api/crypto/datakey', { items: [{ ttag }], ttag }, ''],
  ];
  for (const [path, body, named] of cases) {
    const reply = await alice.post(path, body);
    t.deepEqual([reply.status, reply.body.code], [400, 'BAD_REQUEST'], `${path} ${JSON.stringify(body).slice(0, 80)}`);
    t.true((reply.body.detail as string).startsWith(named), `${reply.body.detail} names ${named}`);
  }

  const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64');
  const made = await alice.post('/api/crypto/datakey', {
    items: [
      { ttag: 'not a ttag!' },
      { ttag, clientPubKey: offCurve },
      { ttag, clientPubKey: Buffer.alloc(33, 2).toString('base64') },
      { ttag },
    ],
  });
  t.is(made.status, 200, made.text);
  const items = made.body.items as Item[];
  t.deepEqual(outcomes(items), ['BAD_REQUEST', 'BAD_REQUEST', 'BAD_REQUEST', 'ok 32 v1']);
  t.true(items[0]!.error!.detail.startsWith('items.0.ttag: '), items[0]!.error!.detail);
  t.regex(items[1]!.error!.detail, /clientPubKey/);
  t.regex(items[2]!.error!.detail, /clientPubKey/);

  // docs/spec.md §1.6: text the rule forbids, or longer than a ttag's 512 characters, is the request's 400 naming the
  // item's field; any other fails its item alone.
  for (const hostile of HOSTILE) {
    const reply = await alice.post('/api/crypto/datakey/open', {
      items: [
        { ttag, blob, clientPubKey },
        { ttag: hostile.value, blob, clientPubKey },
      ],
    });
    if (hostile.forbidden === 'never' && hostile.value.length <= 512) {
      t.is(reply.status, 200, `${hostile.what}: ${reply.text.slice(0, 200)}`);
      t.deepEqual(outcomes(reply.body.items), ['ok 32 v1', 'BAD_REQUEST'], hostile.what);
    } else {
      t.deepEqual([reply.status, reply.body.code], [400, 'BAD_REQUEST'], hostile.what);
      t.true((reply.body.detail as string).startsWith('items.1.ttag: '), `${hostile.what}: ${reply.body.detail}`);
    }
  }

  // docs/spec.md §4.23 item 3: an item names its key by alias, and the record names the alias and the key it resolved to.
  t.is((await alice.put('/api/aliases/vault', { ttag })).status, 200);
  const byAlias = await alice.post('/api/crypto/datakey/open', {
    items: [
      { ttag: 'alias/vault', blob, clientPubKey },
      { ttag: 'alias/vault', blob, clientPubKey },
    ],
  });
  t.deepEqual(outcomes(byAlias.body.items), ['ok 32 v1', 'ok 32 v1']);
  const admin = await signIn(gw, 'admin');
  const records = (await admin.get('/api/audit?operation=crypto.datakey.open&limit=50')).body.items;
  t.like(
    records.find((record: { alias?: string }) => record.alias !== undefined),
    { alias: 'vault', object: ttag, items: 2, failures: 0, keys: [{ ttag, version: 1 }] },
  );

  // docs/spec.md §4.5b item 4: a right held under a condition serves the items whose context meets it, each alone.
  const acme = { tenant: 'acme' };
  const granted = await alice.put(`/api/keys/${pathTtag(ttag)}/acl/bob`, { rights: ['encrypt', 'decrypt'], conditions: { context: acme } });
  t.is(granted.status, 200, granted.text);
  const bob = await signIn(gw, 'bob');
  const bobs = await bob.post('/api/crypto/datakey', {
    items: [{ ttag, context: acme }, { ttag }, { ttag, context: { tenant: 'other' } }],
  });
  t.is(bobs.status, 200, bobs.text);
  t.deepEqual(outcomes(bobs.body.items), ['ok 32 v1', 'CONTEXT_REQUIRED', 'CONTEXT_REQUIRED']);
  const bobsOpened = await bob.post('/api/crypto/datakey/open', {
    items: [
      { ttag, blob: bobs.body.items[0].blob, clientPubKey, context: acme },
      { ttag, blob, clientPubKey },
    ],
  });
  t.deepEqual(outcomes(bobsOpened.body.items), ['ok 32 v1', 'CONTEXT_REQUIRED']);

  const full = await alice.post('/api/crypto/datakey', { items: Array.from({ length: 1000 }, () => ({ ttag, keyLen: 16 })) });
  t.is(full.status, 200, full.text);
  t.deepEqual(new Set(outcomes(full.body.items)), new Set(['ok 16 v1']));
  t.is(new Set((full.body.items as Item[]).map((item) => item.blob)).size, 1000, 'every item is a fresh data key');
});

test('a batch asks the key server once; a batch whose record cannot be stored answers 503 AUDIT_UNAVAILABLE and no item', async (t) => {
  const audit = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startFaultyGateway(t, {}, { auditLog: audit });
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const blob = (await alice.post('/api/crypto/datakey', { ttag })).body.blob as string;
  const made = () => alice.post('/api/crypto/datakey', { items: [{ ttag, clientPubKey: specClientKey().publicKey }, { ttag }] });
  const opened = () =>
    alice.post('/api/crypto/datakey/open', {
      items: [
        { ttag, blob, clientPubKey: specClientKey().publicKey },
        { ttag, blob, clientPubKey: specClientKey().publicKey },
      ],
    });

  for (const batch of [made, opened]) {
    gw.keyServerCalls.length = 0;
    const reply = await batch();
    t.is(reply.status, 200, reply.text);
    t.deepEqual(
      (reply.body.items as Item[]).map((item) => item.ok),
      [true, true],
    );
    t.deepEqual(gw.keyServerCalls, ['cryptoBatch'], 'one key-server round trip for the whole batch');
  }

  for (const fault of ['down', 'failComplete'] as const) {
    for (const batch of [made, opened]) {
      audit.faults[fault] = true;
      gw.keyServerCalls.length = 0;
      const reply = await batch();
      audit.faults[fault] = false;
      t.deepEqual([reply.status, reply.body.code], [503, 'AUDIT_UNAVAILABLE'], `${fault}: ${reply.text.slice(0, 200)}`);
      t.false('items' in reply.body, 'no item is answered');
      t.false(reply.text.includes('"wrapped"') || reply.text.includes('"blob"'));
      t.deepEqual(gw.keyServerCalls, fault === 'down' ? [] : ['cryptoBatch'], `${fault}: a record not begun asks the key server nothing`);
    }
  }
});

test('through a keygate keyserver daemon over mutual TLS: a batch of data keys and its openings cross the protocol in one call each', async (t) => {
  const keyServer = new FaultyKeyServer(await seededDaemonKeyServer(t));
  const gw = await startGateway(t, {}, { keyServer });
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const { ttag: foreign } = await createKey(await signIn(gw, 'bob'));
  const clients = [specClientKey(), specClientKey()];
  keyServer.calls.length = 0;

  const made = await alice.post('/api/crypto/datakey', {
    items: [
      { ttag, keyLen: 24, clientPubKey: clients[0]!.publicKey },
      { ttag: foreign, clientPubKey: clients[1]!.publicKey },
      { ttag, clientPubKey: clients[1]!.publicKey },
    ],
  });

  t.is(made.status, 200, made.text);
  const items = made.body.items as Item[];
  t.deepEqual(outcomes(items), ['ok 24 v1', 'ACL_DENIED', 'ok 32 v1']);
  const keys = unwrapped([items[0]!, items[2]!], clients);
  t.deepEqual(await openAll(alice, ttag, [items[0]!.blob!, items[2]!.blob!]), keys);
  t.deepEqual(keyServer.calls, ['cryptoBatch', 'cryptoBatch'], 'one protocol call for each batch');
  // The most items a batch holds, each wrapped: the protocol's frames carry them.
  const clientPubKey = clients[0]!.publicKey;
  const full = await alice.post('/api/crypto/datakey', { items: Array.from({ length: 1000 }, () => ({ ttag, clientPubKey })) });
  t.is(full.status, 200, full.text.slice(0, 200));
  t.true((full.body.items as Item[]).every((item) => item.ok && item.wrapped !== undefined));
  t.deepEqual(specUnwrap(full.body.items[999].wrapped, clients[0]!.ecdh, INFO).length, 32);
});
