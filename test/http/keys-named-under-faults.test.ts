import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import type { GatewayConfigInput } from '../../src/app/config/config.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import { KeyServerUnavailableError } from '../../src/domain/errors/index.js';
import { Secret } from '../../src/domain/secret/secret.js';
import type { AuditLog } from '../../src/ports/audit-log.port.js';
import type { CallResult, KeyServer, KeyServerConnection } from '../../src/ports/key-server.port.js';
import { type ApiSession, signIn } from '../_support/api-client.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { testUnless } from '../_support/skip.js';
import { fillDisk, freeDisk, smallDisk, withSmallDisk } from '../_support/small-disk.js';
import { postgresProcesses, stopProcesses } from '../_support/stopped-processes.js';

/**
 * Every key in the key server is named by an audit record, or undone (expired): a key is named as
 * soon as the key server answers with it, and a key whose record could not be stored is expired.
 * Checked by comparing the keys the key server made with the objects the audit log names.
 */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const withPostgres = testUnless(postgres.reason);

type User = 'alice' | 'bob';

/** The real embedded key server; the ttags it made, by owner; optionally failing every readKey. */
async function notingKeyServer(clock: ManualClock, faults: { failReads?: boolean } = {}) {
  const { keyServer } = await startEmbeddedKeyServer(
    { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin },
    clock,
    new CryptoRandom(),
  );
  const made: { ttag: string; owner: string }[] = [];
  const connect: KeyServer['connect'] = async (token) => {
    const connection = await keyServer.connect(token);
    const owner = (await connection.call('whoami', {})).user;
    const call: KeyServerConnection['call'] = async (name, args) => {
      if (name === 'readKey' && faults.failReads) throw new KeyServerUnavailableError('connection reset while reading a key');
      const answer = await connection.call(name, args);
      if (name === 'generateKey') made.push({ ttag: (answer as CallResult<'generateKey'>).ttag, owner });
      return answer;
    };
    return overriding(connection, { call });
  };
  return { keyServer: overriding(keyServer, { connect }), made, inner: keyServer };
}

function overriding<T extends object>(target: T, replaced: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (property in replaced) return replaced[property as keyof T];
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** The objects every audit record names, read as the auditor through /api/audit, page by page. */
async function namedObjects(gw: TestGateway): Promise<Set<string>> {
  const audra = await signIn(gw, 'audra');
  const named = new Set<string>();
  let path = '/api/audit?limit=500';
  for (;;) {
    const page = await audra.get(path);
    if (page.status !== 200) throw new Error(`audit read: ${page.status} ${page.text}`);
    for (const item of page.body.items as { object?: string }[]) if (item.object !== undefined) named.add(item.object);
    if (page.body.next === undefined) return named;
    path = `/api/audit?limit=500&cursor=${encodeURIComponent(page.body.next)}`;
  }
}

/** The keys the key server made that are still live and that no audit record names. */
async function liveUnnamed(inner: KeyServer, made: readonly { ttag: string; owner: string }[], named: Set<string>): Promise<string[]> {
  const left: string[] = [];
  for (const user of ['alice', 'bob'] as const) {
    const connection = await inner.connect((await inner.login(user, new Secret(PASSWORDS[user]))).token);
    try {
      for (const { ttag } of made.filter((key) => key.owner === user)) {
        if (!named.has(ttag) && (await connection.call('readKey', { ttag })).state !== 'expired') left.push(ttag);
      }
    } finally {
      await connection.close();
    }
  }
  return left;
}

/** Many key creations on both surfaces at once, by two users. */
function createMany(gw: TestGateway, sessions: Record<User, ApiSession>, count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const session = i % 2 === 0 ? sessions.alice : sessions.bob;
      return i % 3 === 0
        ? gw.call('POST', '/keys', { headers: { 'X-Session': session.sessionId } })
        : session.post('/api/keys', { keyLen: 16 });
    }),
  );
}

/** Undos run once the answer is out: waits (boundedly) until every made key is named or expired. */
async function settled(t: ExecutionContext, gw: TestGateway, inner: KeyServer, made: readonly { ttag: string; owner: string }[]) {
  let left: string[] | undefined;
  for (let round = 0; round < 40; round += 1) {
    // A store just healed may refuse a first read: that round is tried again.
    const named = await namedObjects(gw).catch(() => undefined);
    if (named !== undefined) left = await liveUnnamed(inner, made, named);
    if (left?.length === 0) break;
    await sleep(250);
  }
  left ??= await liveUnnamed(inner, made, await namedObjects(gw));
  t.deepEqual(left, [], `${left.length} of ${made.length} keys are live and named by no audit record`);
}

async function underLoad(
  t: ExecutionContext,
  config: GatewayConfigInput,
  fault: () => void,
  heal: () => void,
  overrides: { auditLog?: AuditLog } = {},
) {
  const clock = new ManualClock(Date.now());
  const { keyServer, made, inner } = await notingKeyServer(clock);
  const gw = await startGateway(t, config, { clock, keyServer, ...overrides });
  const sessions = { alice: await signIn(gw, 'alice'), bob: await signIn(gw, 'bob') };
  const first = createMany(gw, sessions, 30);
  // The fault strikes mid-load: once the key server has made a few of the keys.
  for (let waited = 0; made.length < 5 && waited < 5_000; waited += 5) await sleep(5);
  fault();
  const replies = [...(await first), ...(await createMany(gw, sessions, 30))];
  heal();
  t.true(
    replies.some((reply) => reply.status >= 500),
    'some creations were refused',
  );
  t.true(made.length > 0, 'the key server made keys');
  await settled(t, gw, inner, made);
}

withSmallDisk('with the SQLite audit disk filled mid-load, every key made is named by the audit log or expired', async (t) => {
  const dir = smallDisk(t, '3m');
  await underLoad(
    t,
    { audit: { kind: 'sqlite', file: join(dir, 'audit.db') } },
    () => fillDisk(dir),
    () => freeDisk(dir),
  );
});

withPostgres('with PostgreSQL hung mid-load, every key made is named by the audit log or expired', async (t) => {
  let resume: (() => void) | undefined;
  await underLoad(
    t,
    { audit: { kind: 'postgres', url: postgres.url!, timeoutMs: 2_000, schema: `named_${process.pid}` } },
    () => {
      const pids = postgresProcesses(Number(new URL(postgres.url!).port));
      stopProcesses(t, pids);
      resume = () => {
        for (const pid of pids) process.kill(pid, 'SIGCONT');
      };
    },
    () => resume?.(),
  );
});

test('a key made whose read-back fails while the audit log cannot take its outcome is undone', async (t) => {
  const clock = new ManualClock(Date.now());
  const { keyServer, made, inner } = await notingKeyServer(clock, { failReads: true });
  const auditLog = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startGateway(t, {}, { clock, keyServer, auditLog });
  const alice = await signIn(gw, 'alice');
  auditLog.faults.failComplete = true;
  const refused = await alice.post('/api/keys', {});
  t.is(refused.status, 503, refused.text);
  auditLog.faults.failComplete = false;
  t.is(made.length, 1, 'the key server made the key');
  await settled(t, gw, inner, made);
});
