import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import { Secret } from '../../src/domain/secret/secret.js';
import type { CallResult, KeyServer, KeyServerConnection } from '../../src/ports/key-server.port.js';
import { signIn } from '../_support/api-client.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';

/** The real embedded key server, with the ttags it generated noted (the refused answer withholds them). */
async function notingKeyServer(clock: ManualClock): Promise<{ keyServer: KeyServer; generated: string[] }> {
  const { keyServer } = await startEmbeddedKeyServer(
    { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin },
    clock,
    new CryptoRandom(),
  );
  const generated: string[] = [];
  const connect: KeyServer['connect'] = async (token) => {
    const connection = await keyServer.connect(token);
    const call: KeyServerConnection['call'] = async (name, args) => {
      const answer = await connection.call(name, args);
      if (name === 'generateKey') generated.push((answer as CallResult<'generateKey'>).ttag);
      return answer;
    };
    return overriding(connection, { call });
  };
  return { keyServer: overriding(keyServer, { connect }), generated };
}

/** `target` with some methods replaced; the others called on `target` itself (its private fields intact). */
function overriding<T extends object>(target: T, replaced: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (property in replaced) return replaced[property as keyof T];
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

for (const [surface, create] of [
  [
    '/api',
    (gw: Awaited<ReturnType<typeof startGateway>>, session: string) =>
      gw.call('POST', '/api/keys', { headers: { Authorization: `Bearer ${session}` }, body: {} }),
  ],
  [
    'seven-operation',
    (gw: Awaited<ReturnType<typeof startGateway>>, session: string) => gw.call('POST', '/keys', { headers: { 'X-Session': session } }),
  ],
] as const) {
  test(`${surface}: a key made while its outcome cannot be recorded is undone (expired), never left live and unnamed`, async (t) => {
    const clock = new ManualClock(Date.now());
    const { keyServer, generated } = await notingKeyServer(clock);
    const audit = new FaultyAuditLog(new MemoryAuditLog());
    const gw = await startGateway(t, {}, { clock, keyServer, auditLog: audit });
    const alice = await signIn(gw, 'alice');
    audit.faults.failComplete = true;
    const refused = await create(gw, alice.sessionId);
    t.true(refused.status >= 500, refused.text);
    t.false(refused.text.includes('ttag'));
    t.is(generated.length, 1, 'the key server made the key');
    const direct = await keyServer.connect((await keyServer.login('alice', new Secret(PASSWORDS.alice))).token);
    // The undo runs once the refusal is answered (the answer keeps its time bound): wait for it, boundedly.
    let state = (await direct.call('readKey', { ttag: generated[0]! })).state;
    for (let round = 0; state !== 'expired' && round < 40; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = (await direct.call('readKey', { ttag: generated[0]! })).state;
    }
    t.is(state, 'expired', 'the key was undone');
    await direct.close();
  });
}

test('/api: a write carried out whose outcome cannot be recorded answers outcome unknown and the read that shows it', async (t) => {
  const audit = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startGateway(t, {}, { auditLog: audit });
  const admin = await signIn(gw, 'admin');
  audit.faults.failComplete = true;
  const refused = await admin.post('/api/principals', { name: 'dave', kind: 'user' });
  t.is(refused.status, 503, refused.text);
  t.like(refused.body, { code: 'AUDIT_UNAVAILABLE', outcome: 'unknown', check: 'GET /api/principals/dave' });
  audit.faults.failComplete = false;
  t.is((await admin.get('/api/principals/dave')).status, 200, 'the check shows the principal was made');

  // A write refused before it was performed (its pending record not stored) says nothing of an outcome.
  audit.faults.down = true;
  const before = await admin.post('/api/principals', { name: 'erin', kind: 'user' });
  t.is(before.status, 503, before.text);
  t.false('outcome' in before.body);
  audit.faults.down = false;
  t.is((await admin.get('/api/principals/erin')).status, 404);
});
