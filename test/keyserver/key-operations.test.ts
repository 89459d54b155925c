import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { MemoryEngineStore } from '../../src/keyserver/engine/memory-engine-store.js';
import { SeededRandom } from '../_support/seeded-random.js';

/** An engine with principals, and a token for each, without going through SRP. */
function engineWith(principals: { name: string; kind?: 'user' | 'group' | 'service'; roles?: string[] }[]) {
  const store = new MemoryEngineStore();
  const clock = new ManualClock();
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new SeededRandom() });
  const tokens: Record<string, string> = {};
  for (const p of principals) {
    engine.createPrincipal({ name: p.name, kind: p.kind ?? 'user', roles: p.roles });
    if (p.kind !== 'group') tokens[p.name] = engine.issueToken(store.principalByName(p.name)!).token;
  }
  const id = (name: string) => store.principalByName(name)!.principalId;
  return { engine, store, clock, tokens, id };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

test('a group entry on a key counts for the group members, and only while they are members', (t) => {
  const { engine, store, tokens, id } = engineWith([{ name: 'alice' }, { name: 'bob' }, { name: 'ops', kind: 'group' }]);
  const { ttag } = engine.keys.generate(tokens.alice!, { keyLen: 16 });
  engine.keys.grant(tokens.alice!, ttag, 'ops', ['read', 'encrypt']);
  t.deepEqual(engine.keys.access(tokens.bob!, ttag).rights, []);
  t.is(
    codeOf(() => engine.crypto.encrypt(tokens.bob!, ttag, { plaintext: '' })),
    'ACL_DENIED',
  );
  store.putMembership(id('ops'), id('bob'));
  t.deepEqual(engine.keys.access(tokens.bob!, ttag).rights, ['read', 'encrypt']);
  t.is(engine.crypto.encrypt(tokens.bob!, ttag, { plaintext: 'aGk=' }).alg, 'A128GCM');
  store.deleteMembership(id('ops'), id('bob'));
  t.is(
    codeOf(() => engine.keys.view(tokens.bob!, ttag)),
    'ACL_DENIED',
  );
});

test('checks run role first, then the ACL, then the scope', (t) => {
  const { engine, store, tokens } = engineWith([{ name: 'alice' }, { name: 'bob' }, { name: 'audra', roles: ['auditor'] }]);
  const { ttag } = engine.keys.generate(tokens.alice!, { keyLen: 16 });
  const other = engine.keys.generate(tokens.alice!, { keyLen: 16 }).ttag;
  t.is(
    codeOf(() => engine.crypto.mac(tokens.audra!, ttag, '')),
    'ROLE_DENIED',
    'no role, and no ACL entry either',
  );
  t.is(
    codeOf(() => engine.crypto.mac(tokens.bob!, ttag, '')),
    'ACL_DENIED',
  );
  const scoped = engine.issueToken(store.principalByName('alice')!, { scope: { [ttag]: ['mac'] } }).token;
  t.truthy(engine.crypto.mac(scoped, ttag, 'AA==').mac);
  t.is(
    codeOf(() => engine.crypto.encrypt(scoped, ttag, { plaintext: '' })),
    'OUT_OF_SCOPE',
  );
  t.is(
    codeOf(() => engine.crypto.mac(scoped, other, '')),
    'OUT_OF_SCOPE',
  );
  t.is(
    codeOf(() => engine.keys.access(scoped, other)),
    'OUT_OF_SCOPE',
  );
  t.deepEqual(engine.keys.access(scoped, ttag).rights, ['mac']);
  t.is(
    codeOf(() => engine.keys.expire(scoped, ttag)),
    'OUT_OF_SCOPE',
  );
});

test('a key past its expiresAt is expired: no export, no cryptography, but still readable', (t) => {
  const { engine, clock, tokens } = engineWith([{ name: 'alice' }]);
  const { ttag } = engine.keys.generate(tokens.alice!, { keyLen: 24, label: 'short-lived', expiresAt: clock.now() + 1000 });
  t.like(engine.keys.view(tokens.alice!, ttag), { state: 'active', keyLen: 24, label: 'short-lived' });
  clock.advance(1000);
  t.is(engine.keys.view(tokens.alice!, ttag).state, 'expired');
  t.is(
    codeOf(() => engine.exportKey(tokens.alice!, ttag)),
    'KEY_EXPIRED',
  );
  t.is(
    codeOf(() => engine.crypto.mac(tokens.alice!, ttag, '')),
    'KEY_EXPIRED',
  );
});

test('key creation refuses a past expiry, a bad length and an overlong label', (t) => {
  const { engine, clock, tokens } = engineWith([{ name: 'alice' }]);
  t.is(
    codeOf(() => engine.keys.generate(tokens.alice!, { keyLen: 16, expiresAt: clock.now() })),
    'BAD_REQUEST',
  );
  t.is(
    codeOf(() => engine.keys.generate(tokens.alice!, { keyLen: 20 as 16 })),
    'BAD_REQUEST',
  );
  t.is(
    codeOf(() => engine.keys.generate(tokens.alice!, { keyLen: 16, label: 'x'.repeat(257) })),
    'BAD_REQUEST',
  );
});
