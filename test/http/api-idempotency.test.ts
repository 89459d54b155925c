import test from 'ava';
import pg from 'pg';
import { bearer, pathTtag, signIn } from '../_support/api-client.js';
import { startTestPostgres } from '../_support/postgres.js';
import { testUnless } from '../_support/skip.js';
import { startGatewaysSharingPostgres, startStoreGateway } from '../_support/store-gateways.js';

const postgres = startTestPostgres();
const withPostgres = testUnless(postgres.reason);
test.after.always(() => postgres.stop());

withPostgres(
  'a create or rotate retried through another gateway on the same key server answers the first result and makes nothing more',
  async (t) => {
    const { first, second, postgresUrl } = await startGatewaysSharingPostgres(t, postgres.url!, 'keygate-idem-');
    const [a, b] = [await first.login('alice'), await second.login('alice')];
    const create = (gw: typeof first, session: string, key: string, body: unknown) =>
      gw.call('POST', '/api/keys', { headers: { ...bearer(session), 'Idempotency-Key': key }, body });

    const made = await create(first, a, 'order-7', { keyLen: 32, label: 'invoices' });
    t.is(made.status, 201, made.text);
    const retried = await create(second, b, '"order-7"', { label: 'invoices', keyLen: 32 });
    t.is(retried.status, 201, retried.text);
    t.is(retried.body.ttag, made.body.ttag, 'the retry answers the first key');
    t.like(await create(second, b, 'order-7', { keyLen: 16, label: 'invoices' }), {
      status: 422,
      body: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    t.teardown(() => client.end());
    t.is(Number((await client.query('SELECT count(*) AS n FROM keys')).rows[0].n), 1, 'one key made, not two');

    const rotate = (gw: typeof first, session: string, key: string) =>
      gw.call('POST', `/api/keys/${pathTtag(made.body.ttag)}/rotate`, { headers: { ...bearer(session), 'Idempotency-Key': key } });
    const rotated = await rotate(first, a, 'rotate-1');
    t.like(rotated, { status: 200, body: { version: 2 } });
    t.like(await rotate(second, b, 'rotate-1'), { status: 200, body: { version: 2 } });
    t.like((await second.call('GET', `/api/keys/${pathTtag(made.body.ttag)}`, { headers: bearer(b) })).body, { version: 2 });
    t.like(await rotate(second, b, 'rotate-2'), { status: 200, body: { version: 3 } });
  },
);

test('a malformed Idempotency-Key is 400 and makes nothing; the same key for create and for rotate are different requests', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  for (const key of ['has space', 'x'.repeat(256), '"unclosed']) {
    const reply = await gw.call('POST', '/api/keys', { headers: { ...bearer(alice.sessionId), 'Idempotency-Key': key }, body: {} });
    t.like(reply, { status: 400, body: { code: 'BAD_REQUEST', detail: 'Idempotency-Key: 1..255 visible ASCII characters' } }, key);
  }
  const made = await gw.call('POST', '/api/keys', { headers: { ...bearer(alice.sessionId), 'Idempotency-Key': 'k1' }, body: {} });
  t.is(made.status, 201);
  const again = await gw.call('POST', '/api/keys', { headers: { ...bearer(alice.sessionId), 'Idempotency-Key': 'k1' } });
  t.is(again.body.ttag, made.body.ttag, 'no body is the body {} with its defaults');
  const rotate = await gw.call('POST', `/api/keys/${pathTtag(made.body.ttag)}/rotate`, {
    headers: { ...bearer(alice.sessionId), 'Idempotency-Key': 'k1' },
  });
  t.like(rotate, { status: 422, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
  const bob = await signIn(gw, 'bob');
  const bobs = await gw.call('POST', '/api/keys', { headers: { ...bearer(bob.sessionId), 'Idempotency-Key': 'k1' }, body: {} });
  t.is(bobs.status, 201);
  t.not(bobs.body.ttag, made.body.ttag, "another principal's key is its own");
});
