import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { SeededRandom } from '../_support/seeded-random.js';

/** An engine with principals, and a token for each, without going through SRP. */
async function engineWith(principals: { name: string; kind?: 'user' | 'group' | 'service'; roles?: string[] }[]) {
  const store = new MemoryEngineStore();
  const clock = new ManualClock();
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new SeededRandom() });
  const tokens: Record<string, string> = {};
  for (const p of principals) {
    await engine.createPrincipal({ name: p.name, kind: p.kind ?? 'user', roles: p.roles });
    if (p.kind !== 'group') tokens[p.name] = (await engine.issueToken((await store.principalByName(p.name))!)).token;
  }
  const ids = new Map<string, string>();
  for (const row of await store.principalsAfter(undefined, 1000)) ids.set(row.name, row.principalId);
  const id = (name: string) => ids.get(name)!;
  return { engine, store, clock, tokens, id };
}

async function codeOf(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

test('a group entry on a key counts for the group members, and only while they are members', async (t) => {
  const { engine, store, tokens, id } = await engineWith([{ name: 'alice' }, { name: 'bob' }, { name: 'ops', kind: 'group' }]);
  const { ttag } = await engine.keys.generate(tokens.alice!, { keyLen: 16 });
  await engine.keys.grant(tokens.alice!, ttag, 'ops', ['read', 'encrypt']);
  t.deepEqual((await engine.keys.access(tokens.bob!, ttag)).rights, []);
  t.is(await codeOf(async () => await engine.crypto.encrypt(tokens.bob!, ttag, { plaintext: Buffer.alloc(0) })), 'ACL_DENIED');
  await store.putMembership(id('ops'), id('bob'));
  t.deepEqual((await engine.keys.access(tokens.bob!, ttag)).rights, ['read', 'encrypt']);
  t.is((await engine.crypto.encrypt(tokens.bob!, ttag, { plaintext: Buffer.from('hi') })).alg, 'A128GCM');
  await store.deleteMembership(id('ops'), id('bob'));
  t.is(await codeOf(async () => await engine.keys.view(tokens.bob!, ttag)), 'ACL_DENIED');
});

test('checks run role first, then the ACL, then the scope', async (t) => {
  const { engine, store, tokens } = await engineWith([{ name: 'alice' }, { name: 'bob' }, { name: 'audra', roles: ['auditor'] }]);
  const { ttag } = await engine.keys.generate(tokens.alice!, { keyLen: 16 });
  const other = (await engine.keys.generate(tokens.alice!, { keyLen: 16 })).ttag;
  t.is(
    await codeOf(async () => await engine.crypto.mac(tokens.audra!, ttag, Buffer.alloc(0))),
    'ROLE_DENIED',
    'no role, and no ACL entry either',
  );
  t.is(await codeOf(async () => await engine.crypto.mac(tokens.bob!, ttag, Buffer.alloc(0))), 'ACL_DENIED');
  const scoped = (await engine.issueToken((await store.principalByName('alice'))!, { scope: { [ttag]: ['mac'] } })).token;
  t.truthy((await engine.crypto.mac(scoped, ttag, Buffer.alloc(1))).mac);
  t.is(await codeOf(async () => await engine.crypto.encrypt(scoped, ttag, { plaintext: Buffer.alloc(0) })), 'OUT_OF_SCOPE');
  t.is(await codeOf(async () => await engine.crypto.mac(scoped, other, Buffer.alloc(0))), 'OUT_OF_SCOPE');
  t.is(await codeOf(async () => await engine.keys.access(scoped, other)), 'OUT_OF_SCOPE');
  t.deepEqual((await engine.keys.access(scoped, ttag)).rights, ['mac']);
  t.is(await codeOf(async () => await engine.keys.expire(scoped, ttag)), 'OUT_OF_SCOPE');
});

test('a key past its expiresAt is expired: no export, no cryptography, but still readable', async (t) => {
  const { engine, clock, tokens } = await engineWith([{ name: 'alice' }]);
  const { ttag } = await engine.keys.generate(tokens.alice!, { keyLen: 24, label: 'short-lived', expiresAt: clock.now() + 1000 });
  t.like(await engine.keys.view(tokens.alice!, ttag), { state: 'active', keyLen: 24, label: 'short-lived' });
  clock.advance(1000);
  t.is((await engine.keys.view(tokens.alice!, ttag)).state, 'expired');
  t.is(await codeOf(async () => await engine.keys.exportKey(tokens.alice!, ttag)), 'KEY_EXPIRED');
  t.is(await codeOf(async () => await engine.crypto.mac(tokens.alice!, ttag, Buffer.alloc(0))), 'KEY_EXPIRED');
});

test('key creation refuses a past expiry, a bad length and an overlong label', async (t) => {
  const { engine, clock, tokens } = await engineWith([{ name: 'alice' }]);
  t.is(await codeOf(async () => await engine.keys.generate(tokens.alice!, { keyLen: 16, expiresAt: clock.now() })), 'BAD_REQUEST');
  t.is(await codeOf(async () => await engine.keys.generate(tokens.alice!, { keyLen: 20 as 16 })), 'BAD_REQUEST');
  t.is(await codeOf(async () => await engine.keys.generate(tokens.alice!, { keyLen: 16, label: 'x'.repeat(257) })), 'BAD_REQUEST');
});
