import test from 'ava';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { aliceOnMemory, codeOf } from '../_support/engine-stores.js';

// The key-state rules of the engine (docs/spec.md §4.6), on a store in memory.

test('a scoped token neither disables nor enables, whatever rights its scope holds: the state is the owner’s, unscoped', async (t) => {
  const { engine, alice, token } = await aliceOnMemory();
  const { ttag } = await runOperation(engine, 'generateKey', token, { keyLen: 16 });
  const scoped = (await engine.issueToken(alice, { scope: { [ttag]: ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate'] } })).token;
  t.is(await codeOf(() => runOperation(engine, 'disableKey', scoped, { ttag })), 'OUT_OF_SCOPE');
  t.is((await runOperation(engine, 'disableKey', token, { ttag })).state, 'disabled');
  t.is(await codeOf(() => runOperation(engine, 'enableKey', scoped, { ttag })), 'OUT_OF_SCOPE');
  t.is(await codeOf(() => runOperation(engine, 'encrypt', scoped, { ttag, request: { plaintext: Buffer.from('x') } })), 'KEY_DISABLED');
});

test('a disabled key whose expiry time passes reads expired, and is then neither enabled nor disabled (KEY_EXPIRED)', async (t) => {
  const { engine, clock, token } = await aliceOnMemory();
  const { ttag } = await runOperation(engine, 'generateKey', token, { keyLen: 16, expiresAt: clock.now() + 60_000 });
  t.is((await runOperation(engine, 'disableKey', token, { ttag })).state, 'disabled');
  clock.advance(60_000);
  t.is((await runOperation(engine, 'readKey', token, { ttag })).state, 'expired');
  t.is(await codeOf(() => runOperation(engine, 'enableKey', token, { ttag })), 'KEY_EXPIRED');
  t.is(await codeOf(() => runOperation(engine, 'disableKey', token, { ttag })), 'KEY_EXPIRED');
  t.is(await codeOf(() => runOperation(engine, 'exportKey', token, { ttag })), 'KEY_EXPIRED');
});
