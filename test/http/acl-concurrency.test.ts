import test, { type ExecutionContext } from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { TlsKeyServer } from '../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import type { KeyServer } from '../../src/ports/key-server.port.js';
import { asSession, createKey, pathTtag, type ApiSession } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import type { Reply } from '../_support/http.js';
import { clientConfig, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { RecordingKeyServer } from '../_support/recording-key-server.js';

/**
 * Issue 15 §2: concurrent grant and revoke of one key and grantee. Every answer is a success, or 409
 * CONFLICT with reason CONCURRENT_CHANGE for a write another writer overtook (api-surface.md
 * "Additions in 8.1.x"); never NOT_SAVED, NOT_VERIFIED or a 5xx for a write that took effect. The ACL
 * afterwards is the effect of the last write the key server applied (the highest revision it answered).
 */
const ROUNDS = 40;
test.after.always(killAllDaemons);

type Surface = 'api' | 'root';

interface Stage {
  readonly gw: TestGateway;
  readonly recorder: RecordingKeyServer;
  readonly audit: MemoryAuditLog;
}

async function stage(t: ExecutionContext, inner: KeyServer, clock?: ManualClock): Promise<Stage> {
  const recorder = new RecordingKeyServer(inner);
  const audit = new MemoryAuditLog();
  const gw = await startGateway(t, {}, { keyServer: recorder, auditLog: audit, ...(clock ? { clock } : {}) });
  return { gw, recorder, audit };
}

async function embeddedStage(t: ExecutionContext): Promise<Stage> {
  const clock = new ManualClock(Date.now());
  const { keyServer } = await startEmbeddedKeyServer({ kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin }, clock, new CryptoRandom());
  return stage(t, keyServer, clock);
}

/** One grant and one revoke of bob on the key, sent together on one surface. */
function racePair(gw: TestGateway, alice: ApiSession, ttag: string, surface: Surface): Promise<[Reply, Reply]> {
  if (surface === 'api') {
    const path = `/api/keys/${pathTtag(ttag)}/acl/bob`;
    return Promise.all([alice.put(path, { rights: ['read', 'export'] }), alice.del(path)]);
  }
  const headers = { 'X-Session': alice.sessionId };
  return Promise.all([
    gw.call('POST', '/keys/grant', { headers, body: { ttag, grantee: 'bob' } }),
    gw.call('POST', '/keys/revoke', { headers, body: { ttag, grantee: 'bob' } }),
  ]);
}

/** Whether the answer is a success, a CONCURRENT_CHANGE conflict, or something else (a failure). */
function verdict(reply: Reply, surface: Surface): 'ok' | 'overtaken' | 'wrong' {
  if (reply.status === 200 || reply.status === 204) return 'ok';
  if (reply.status !== 409) return 'wrong';
  if (surface === 'api') return reply.body?.code === 'CONFLICT' && reply.body?.reason === 'CONCURRENT_CHANGE' ? 'overtaken' : 'wrong';
  return reply.body?.error === 'CONCURRENT_CHANGE' ? 'overtaken' : 'wrong';
}

/**
 * Runs the rounds on both surfaces. Answers the request ids of the writes answered CONCURRENT_CHANGE;
 * every answer that is neither a success nor that conflict is a failure of the test, listed whole.
 */
async function race(t: ExecutionContext, { gw, recorder }: Stage): Promise<string[]> {
  const alice = asSession(gw, await gw.login('alice'));
  const overtaken: string[] = [];
  const wrong: string[] = [];
  const unexplained: string[] = [];
  for (const surface of ['api', 'root'] as const) {
    const ttag = (await createKey(alice)).ttag;
    const acl = `/api/keys/${pathTtag(ttag)}/acl`;
    for (let round = 0; round < ROUNDS; round++) {
      const [grant, revoke] = await racePair(gw, alice, ttag, surface);
      const verdicts = { grant: verdict(grant, surface), revoke: verdict(revoke, surface) };
      for (const [kind, reply] of [
        ['grant', grant],
        ['revoke', revoke],
      ] as const) {
        if (verdicts[kind] === 'wrong') wrong.push(`${surface} ${kind}: ${reply.status} ${reply.text}`);
        if (verdicts[kind] === 'overtaken') overtaken.push(reply.headers.get('x-request-id')!);
      }
      const last = recorder.lastWrite(ttag);
      const final = await alice.get(acl);
      const present = final.status === 200 && (final.body.items as { principal: string }[]).some((entry) => entry.principal === 'bob');
      // The last write applied saw its own effect on read-back; only the other one can be overtaken.
      if (last === undefined) unexplained.push(`${surface} round ${round}: no revision answered for the writes`);
      else if (verdicts[last.kind] !== 'ok')
        unexplained.push(`${surface} round ${round}: the last write applied (${last.kind}) answered ${verdicts[last.kind]}`);
      else if (present !== (last.kind === 'grant')) unexplained.push(`${surface} round ${round}: the ACL does not show the last ${last.kind}`);
    }
  }
  t.deepEqual(wrong, [], `${wrong.length} of ${4 * ROUNDS} answers were neither a success nor CONFLICT CONCURRENT_CHANGE`);
  t.deepEqual(unexplained, []);
  return overtaken;
}

test('concurrent grant and revoke on both surfaces (embedded key server): successes or CONFLICT CONCURRENT_CHANGE, and the ACL of the last write', async (t) => {
  const s = await embeddedStage(t);
  const overtaken = await race(t, s);
  t.log(`${overtaken.length} of ${4 * ROUNDS} writes were overtaken by the other writer`);
  // A write answered CONCURRENT_CHANGE is recorded as the other 409s are: an error, with its status and code.
  const records = (await s.audit.query({ limit: 500 })).items;
  for (const requestId of overtaken) {
    const record = records.find((r) => r.requestId === requestId);
    t.like(record, { outcome: 'error', status: 409, code: 'CONFLICT' }, `the record of request ${requestId}`);
  }
});

test('concurrent grant and revoke through the daemon over mutual TLS: successes or CONFLICT CONCURRENT_CHANGE, and the ACL of the last write', async (t) => {
  const fixtures = await daemonFixtures(SEED);
  const daemon = await spawnDaemon(t, [
    ...['--data', ':memory:', '--port', '0', '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin],
    ...['--cert', fixtures.certPath, '--key', fixtures.keyPath],
  ]);
  const keyServer = await TlsKeyServer.start(
    { url: daemon.url, timeoutMs: 10_000, fingerprint: daemon.fingerprint, resumeSessions: true, ...(await clientConfig()) },
    new CryptoRandom(),
  );
  t.teardown(() => keyServer.close());
  await race(t, await stage(t, keyServer));
});
