import test from 'ava';
import { type Invoke, OperationConnection } from '../../../src/adapters/key-server/operation-connection.js';
import { KEY_SERVER_OPERATIONS } from '../../../src/wire/keyserver-operations.js';

/**
 * A rolling upgrade: gateways may be newer than the daemons they reach. An older key server answers a
 * creation without `replayed` (docs/spec.md §4.22 item 7); the gateway must read it, and must never
 * take a key it cannot tell is its own for one it may undo.
 */
const olderDaemon = (answer: unknown): Invoke =>
  (async (name: string) => {
    // What the gateway does with a daemon's reply: parsed by the operation's result schema.
    if (name !== 'generateKey') throw new Error(`unexpected ${name}`);
    return KEY_SERVER_OPERATIONS.generateKey.result.parse(answer);
  }) as Invoke;

test("an older key server's creation without `replayed` is read: without an Idempotency-Key it is this request's own", async (t) => {
  const connection = new OperationConnection(olderDaemon({ ttag: 'k1' }));
  t.deepEqual(await connection.call('generateKey', { keyLen: 16 }), { ttag: 'k1', replayed: false });
});

test("with an Idempotency-Key it may be an earlier request's, so it is taken as replayed and never undone", async (t) => {
  const connection = new OperationConnection(olderDaemon({ ttag: 'k1' }));
  t.deepEqual(await connection.call('generateKey', { keyLen: 16, idempotency: { key: 'retry-1', fingerprint: 'f'.repeat(64) } }), {
    ttag: 'k1',
    replayed: true,
  });
});

test('a key server that says replayed is taken at its word', async (t) => {
  const said = new OperationConnection(olderDaemon({ ttag: 'k1', replayed: false }));
  t.deepEqual(await said.call('generateKey', { keyLen: 16, idempotency: { key: 'retry-1', fingerprint: 'f'.repeat(64) } }), {
    ttag: 'k1',
    replayed: false,
  });
});
