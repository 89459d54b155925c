import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import pg from 'pg';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { embeddedStorePath } from '../../src/app/embedded-engine.js';
import { type ApiSession, bearer, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import type { TestGateway } from '../_support/gateway.js';
import { startGateway } from '../_support/gateway.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, type KeyServerStore, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

const DAY = 86_400_000;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const PENDING = { status: 409, body: { code: 'KEY_PENDING_DELETION' } };
const DELETED = { status: 409, body: { code: 'KEY_DELETED' } };

/** Waits (bounded, in short real-time polls) until `ready` holds: the sweeps run on the gateway's clock, moved by the test. */
async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
  const giveUpAt = Date.now() + 10_000;
  while (!(await ready())) {
    if (Date.now() > giveUpAt) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every use of the key's material, as the /api takes it (single requests, then batch items), with the 409 each answers. */
async function usesRefused(t: ExecutionContext, session: ApiSession, ttag: string, refused: object, sealed: object, blob: string) {
  const path = `/api/keys/${pathTtag(ttag)}`;
  t.like(await session.post(`${path}/export`, { clientPubKey: clientKeyPair().publicKey }), refused, 'export');
  t.like(await session.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') }), refused, 'encrypt');
  t.like(await session.post('/api/crypto/decrypt', { ttag, ...sealed }), refused, 'decrypt');
  t.like(await session.post('/api/crypto/mac', { ttag, data: b64('m') }), refused, 'mac');
  t.like(await session.post('/api/crypto/rewrap', { ttag, ...sealed }), refused, 'rewrap');
  t.like(await session.post('/api/crypto/datakey', { ttag }), refused, 'datakey');
  t.like(await session.post('/api/crypto/datakey/open', { ttag, blob, clientPubKey: clientKeyPair().publicKey }), refused, 'datakey/open');
  t.like(await session.post(`${path}/rotate`), refused, 'rotate');
  t.like(await session.post(`${path}/disable`), refused, 'disable');
  const code = (refused as { body: { code: string } }).body.code;
  for (const [operation, item] of [
    ['encrypt', { ttag, plaintext: b64('x') }],
    ['decrypt', { ttag, ...sealed }],
  ] as const) {
    const other = await createKey(session);
    const reply = await session.post(`/api/crypto/${operation}`, {
      items: [item, ...(operation === 'encrypt' ? [{ ttag: other.ttag, plaintext: b64('y') }] : [])],
    });
    t.is(reply.status, 200, `${operation} batch: ${reply.text}`);
    t.like(reply.body.items[0], { ok: false, error: { code } }, `${operation} batch item fails alone`);
    if (operation === 'encrypt') t.like(reply.body.items[1], { ok: true }, 'the other item goes through');
  }
}

/** Names the key by an alias straight in the store (the aliases routes are another part's): a row of the aliases table. */
async function insertAlias(gw: TestGateway, store: KeyServerStore, ttag: string): Promise<(() => Promise<number>) | undefined> {
  const config = gw.gateway.config.keyServer;
  if (store === 'memory' || config.kind !== 'embedded') return undefined;
  const now = gw.clock.now();
  if (store === 'sqlite') {
    const path = embeddedStorePath(config)!;
    const db = new Database(path);
    db.prepare('INSERT INTO aliases (name, ttag, created_at, updated_at) VALUES (?, ?, ?, ?)').run('payments', ttag, now, now);
    db.close();
    return async () => {
      const reader = new Database(path, { readonly: true });
      try {
        return (reader.prepare('SELECT count(*) AS n FROM aliases WHERE ttag = ?').get(ttag) as { n: number }).n;
      } finally {
        reader.close();
      }
    };
  }
  const client = new pg.Client({ connectionString: config.postgresUrl });
  await client.connect();
  try {
    await client.query('INSERT INTO aliases (name, ttag, created_at, updated_at) VALUES ($1, $2, $3, $3)', ['payments', ttag, now]);
  } finally {
    await client.end();
  }
  return async () => {
    const reader = new pg.Client({ connectionString: config.postgresUrl });
    await reader.connect();
    try {
      return Number((await reader.query('SELECT count(*) AS n FROM aliases WHERE ttag = $1', [ttag])).rows[0].n);
    } finally {
      await reader.end();
    }
  };
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: a key scheduled for deletion refuses its material with 409 KEY_PENDING_DELETION; past deletionAt the sweep leaves a tombstone that answers KEY_DELETED, and one keys.destroy record`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      let alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice);
      const path = `/api/keys/${pathTtag(ttag)}`;
      const { alg: _a, version: _v, ...sealed } = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('gone') })).body;
      const { blob } = (await alice.post('/api/crypto/datakey', { ttag })).body;
      t.is((await alice.put(`${path}/acl/bob`, { rights: ['read', 'encrypt'] })).status, 200);
      const aliases = await insertAlias(gw, store, ttag);

      t.like(await alice.post(`${path}/schedule-deletion`, { pendingDays: 6 }), { status: 400, body: { code: 'BAD_REQUEST' } });
      const outside = await alice.post(`${path}/schedule-deletion`, { pendingDays: 31 });
      t.like(outside, { status: 400, body: { code: 'BAD_REQUEST' } });
      t.regex(outside.body.detail, /pendingDays.*7 to 30/);
      const bob = await signIn(gw, 'bob');
      t.like(await bob.post(`${path}/schedule-deletion`, { pendingDays: 7 }), { status: 403, body: { code: 'ACL_DENIED' } });

      const scheduled = await alice.post(`${path}/schedule-deletion`, { pendingDays: 7 });
      t.is(scheduled.status, 200, scheduled.text);
      const deletionAt = gw.clock.now() + 7 * DAY;
      t.like(scheduled.body, { ttag, state: 'pending-deletion', deletionAt: new Date(deletionAt).toISOString() });
      t.like(await alice.post(`${path}/schedule-deletion`), PENDING, 'scheduling again');
      await usesRefused(t, alice, ttag, PENDING, sealed, blob);
      t.like(await bob.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') }), PENDING, 'a grantee is refused too');
      t.like(await bob.get(path), { status: 200, body: { state: 'pending-deletion' } }, 'reads still work');
      t.like(await alice.get(`${path}/acl`), { status: 200 });

      // The clock passes deletionAt: the key server's sweep (on the gateway's clock) destroys the key.
      gw.clock.advance(7 * DAY + 1);
      alice = await signIn(gw, 'alice');
      await until('the key reads deleted', async () => (await alice.get(path)).body.state === 'deleted');
      const tombstone = await alice.get(path);
      t.like(tombstone, { status: 200, body: { ttag, state: 'deleted', deletionAt: new Date(deletionAt).toISOString() } });
      t.truthy(tombstone.body.deletedAt);
      t.like(await (await signIn(gw, 'bob')).get(path), { status: 200, body: { state: 'deleted' } }, 'a reader still sees it');
      await usesRefused(t, alice, ttag, DELETED, sealed, blob);
      t.like(await alice.post(`${path}/enable`), DELETED);
      t.like(await alice.post(`${path}/schedule-deletion`), DELETED);
      t.like(await alice.post(`${path}/cancel-deletion`), DELETED);
      if (aliases !== undefined) t.is(await aliases(), 0, 'its aliases are gone');

      // A minute on, a gateway stores the destruction's record, once.
      const auditor = await signIn(gw, 'audra');
      const destroyed = async () => (await auditor.get('/api/audit?operation=keys.destroy')).body.items as Record<string, unknown>[];
      gw.clock.advance(61_000);
      await until('the destruction is recorded', async () => (await destroyed()).length > 0);
      gw.clock.advance(10 * 60_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const records = await destroyed();
      t.is(records.length, 1, 'recorded once');
      t.like(records[0], { principal: 'keyserver:sweep', object: ttag, outcome: 'ok', status: 200, at: tombstone.body.deletedAt });
      t.like(await gw.call('GET', '/api/audit/verify', { headers: bearer(auditor.sessionId) }), { status: 200, body: { ok: true } });
    },
  );

  check(`${store}: cancelling a scheduled deletion brings the key back disabled; the sweep leaves it alone`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice);
    const path = `/api/keys/${pathTtag(ttag)}`;
    t.like(await alice.post(`${path}/cancel-deletion`), { status: 200, body: { state: 'active' } }, 'nothing to cancel');
    const scheduled = await alice.post(`${path}/schedule-deletion`);
    t.like(scheduled, { status: 200, body: { state: 'pending-deletion' } });
    t.is(scheduled.body.deletionAt, new Date(gw.clock.now() + 30 * DAY).toISOString(), 'the maximum, 30 days, by default');
    t.like(await (await signIn(gw, 'bob')).post(`${path}/cancel-deletion`), { status: 403, body: { code: 'ACL_DENIED' } });
    const cancelled = await alice.post(`${path}/cancel-deletion`);
    t.like(cancelled, { status: 200, body: { state: 'disabled' } });
    t.false('deletionAt' in cancelled.body);
    t.like(await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') }), { status: 409, body: { code: 'KEY_DISABLED' } });
    gw.clock.advance(31 * DAY);
    const later = await signIn(gw, 'alice');
    t.like(await later.post(`${path}/enable`), { status: 200, body: { state: 'active' } });
    t.like(await later.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') }), { status: 200 });
    const auditor = await signIn(gw, 'audra');
    t.like((await auditor.get('/api/audit?operation=keys.schedule-deletion')).body.items, [
      { principal: 'alice', object: ttag, outcome: 'ok' },
    ]);
    // Made at one instant of the clock: compared in an order of the test's own.
    const cancels = (await auditor.get('/api/audit?operation=keys.cancel-deletion')).body.items as Record<string, string>[];
    t.deepEqual(cancels.map(({ principal, object, outcome }) => `${principal} ${outcome} ${object === ttag}`).sort(), [
      'alice ok true',
      'alice ok true',
      'bob denied true',
    ]);
  });
}

test('a destruction whose record the audit log could not take is recorded by a later round, once', async (t) => {
  const log = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startGateway(t, {}, { auditLog: log });
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/schedule-deletion`, { pendingDays: 7 })).status, 200);
  log.faults.down = true;
  gw.clock.advance(7 * DAY + 1);
  const warned = () => gw.logger.lines.some((line) => line.level === 'warn' && line.message.startsWith('destroyed keys not recorded yet'));
  await until('a round fails to record', async () => {
    if (!warned()) gw.clock.advance(61_000);
    return warned();
  });
  log.faults.down = false;
  // The failed round's claim holds 5 minutes; then the destruction is handed out again.
  gw.clock.advance(5 * 60_000 + 1);
  const auditor = await signIn(gw, 'audra');
  const destroyed = async () => (await auditor.get('/api/audit?operation=keys.destroy')).body.items as Record<string, unknown>[];
  await until('the destruction is recorded', async () => (await destroyed()).length > 0);
  gw.clock.advance(61_000);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.like(await destroyed(), [{ principal: 'keyserver:sweep', object: ttag, outcome: 'ok' }]);
  t.is((await destroyed()).length, 1, 'recorded once');
});

test('the root export of a key pending deletion is refused as the root surface refuses: 403 export denied or failed', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  const made = await gw.call('POST', '/keys', { headers: { 'X-Session': session }, body: {} });
  t.is(made.status, 200, made.text);
  const { ttag } = made.body as { ttag: string };
  const alice = await signIn(gw, 'alice');
  t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/schedule-deletion`, { pendingDays: 7 })).status, 200);
  const refused = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': session },
    body: { ttag, clientPubKey: clientKeyPair().publicKey },
  });
  t.deepEqual(refused.body, { error: 'export denied or failed', detail: 'the key is scheduled for deletion' });
  t.is(refused.status, 403);
});
