import test, { type ExecutionContext } from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import type { KeyServer } from '../../src/ports/key-server.port.js';
import { type ApiSession, asSession, createKey, pathTtag } from '../_support/api-client.js';
import { PASSWORDS, SEED, startFaultyGateway, startGateway, type TestGateway } from '../_support/gateway.js';
import type { Reply } from '../_support/http.js';
import { killAllDaemons } from '../_support/keyserver-daemon.js';
import { type AppliedAclWrite, RecordingKeyServer } from '../_support/recording-key-server.js';
import { seededDaemonKeyServer } from '../_support/seeded-daemon.js';

/**
 * Issue 15 §2: concurrent grant and revoke of one key and grantee. Every answer is a success, or on the
 * /api surface 409 CONFLICT with reason CONCURRENT_CHANGE for a write another writer overtook
 * (api-surface.md "Additions in 8.1.x"); the seven-operation surface has no 409 for grant and revoke
 * (seed 000), so there an overtaken write is the success it was. Never NOT_SAVED, NOT_VERIFIED or a 5xx
 * for a write that took effect. The ACL afterwards is the effect of the last write the key server
 * applied (the highest revision it answered).
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
  const { keyServer } = await startEmbeddedKeyServer(
    { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin },
    clock,
    new CryptoRandom(),
  );
  return stage(t, keyServer, clock);
}

/** Rights of the /api grants of one round, one set per pair: the final ACL tells which grant was last. */
const API_RIGHTS = [['read'], ['read', 'export'], ['mac']] as const;

interface Answer {
  readonly kind: 'grant' | 'revoke';
  readonly reply: Reply;
}

/** PAIRS grants and PAIRS revokes of bob on the key, sent together on one surface. */
function raceRound(gw: TestGateway, alice: ApiSession, ttag: string, surface: Surface): Promise<Answer[]> {
  const headers = { 'X-Session': alice.sessionId };
  const path = `/api/keys/${pathTtag(ttag)}/acl/bob`;
  const writes = API_RIGHTS.flatMap((rights) =>
    surface === 'api'
      ? [
          { kind: 'grant' as const, send: () => alice.put(path, { rights }) },
          { kind: 'revoke' as const, send: () => alice.del(path) },
        ]
      : [
          { kind: 'grant' as const, send: () => gw.call('POST', '/keys/grant', { headers, body: { ttag, grantee: 'bob' } }) },
          { kind: 'revoke' as const, send: () => gw.call('POST', '/keys/revoke', { headers, body: { ttag, grantee: 'bob' } }) },
        ],
  );
  return Promise.all(writes.map(async ({ kind, send }) => ({ kind, reply: await send() })));
}

/** Whether the answer is a success, a CONCURRENT_CHANGE conflict, or something else (a failure). */
function verdict(reply: Reply, surface: Surface): 'ok' | 'overtaken' | 'wrong' {
  if (reply.status === 200 || reply.status === 204) return 'ok';
  if (reply.status !== 409 || surface !== 'api') return 'wrong';
  return reply.body?.code === 'CONFLICT' && reply.body?.reason === 'CONCURRENT_CHANGE' ? 'overtaken' : 'wrong';
}

/** What the final ACL must show of bob after `last`: its rights after a grant, nothing after a revoke. */
function expectedEntry(last: AppliedAclWrite, surface: Surface): readonly string[] | undefined {
  if (last.kind === 'revoke') return undefined;
  return surface === 'api' ? last.rights : ['read', 'export'];
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
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await raceRound(gw, alice, ttag, surface);
      const verdicts = answers.map(({ kind, reply }) => ({ kind, reply, verdict: verdict(reply, surface) }));
      for (const { kind, reply, verdict } of verdicts) {
        if (verdict === 'wrong') wrong.push(`${surface} ${kind}: ${reply.status} ${reply.text}`);
        if (verdict === 'overtaken') overtaken.push(reply.headers.get('x-request-id')!);
      }
      const last = recorder.lastWrite(ttag);
      const final = await alice.get(`/api/keys/${pathTtag(ttag)}/acl`);
      const entry = (final.body?.items as { principal: string; rights: string[] }[] | undefined)?.find((e) => e.principal === 'bob');
      const where = `${surface} round ${round}`;
      // The last write applied saw its own effect on read-back: a write of its kind was answered a success.
      if (last === undefined) unexplained.push(`${where}: no revision answered for the writes`);
      else if (!verdicts.some((v) => v.kind === last.kind && v.verdict === 'ok'))
        unexplained.push(`${where}: no ${last.kind} answered a success`);
      else if (JSON.stringify(entry?.rights) !== JSON.stringify(expectedEntry(last, surface))) {
        unexplained.push(`${where}: the ACL shows ${JSON.stringify(entry)} after the last ${last.kind}`);
      }
    }
  }
  t.deepEqual(
    wrong,
    [],
    `${wrong.length} of ${4 * API_RIGHTS.length * ROUNDS} answers were neither a success nor (on /api) CONFLICT CONCURRENT_CHANGE`,
  );
  t.deepEqual(unexplained, []);
  t.log(`${overtaken.length} of ${4 * API_RIGHTS.length * ROUNDS} writes were overtaken by another writer`);
  return overtaken;
}

test('concurrent grant and revoke on both surfaces (embedded key server): successes or CONFLICT CONCURRENT_CHANGE, and the ACL of the last write', async (t) => {
  // The embedded engine runs a request's write and read-back without another request in between, so
  // here every write is read back before the next one: all successes (the overtaken path is below).
  await race(t, await embeddedStage(t));
});

test('concurrent grant and revoke through the daemon over mutual TLS: successes or CONFLICT CONCURRENT_CHANGE, and the ACL of the last write', async (t) => {
  const keyServer = await seededDaemonKeyServer(t);
  const s = await stage(t, keyServer);
  const overtaken = await race(t, s);
  t.true(overtaken.length > 0, 'requests to the daemon interleave: some writes are overtaken');
  // A write answered CONCURRENT_CHANGE is recorded as the other 409s are: an error, with its status and code.
  const writes = ['acl.put', 'acl.delete'].map((operation) => s.audit.query({ operation, limit: 500 }));
  const records = (await Promise.all(writes)).flatMap((page) => page.items);
  for (const requestId of overtaken) {
    t.like(
      records.find((r) => r.requestId === requestId),
      { outcome: 'error', status: 409, code: 'CONFLICT' },
      `the record of request ${requestId}`,
    );
  }
});

/** Every write overtaken by a second writer, deterministically (the fault injector applies the opposite change). */
async function overtakingGateway(t: ExecutionContext) {
  const audit = new MemoryAuditLog();
  const gw = await startFaultyGateway(t, {}, { auditLog: audit });
  const alice = asSession(gw, await gw.login('alice'));
  const ttag = (await createKey(alice)).ttag;
  gw.faults.overtakeAclWrites = true;
  const bobEntry = async () => {
    const items = (await alice.get(`/api/keys/${pathTtag(ttag)}/acl`)).body.items as { principal: string; rights: string[] }[];
    return items.find((entry) => entry.principal === 'bob');
  };
  const recordOf = async (reply: Reply) =>
    (await audit.query({ limit: 500 })).items.find((r) => r.requestId === reply.headers.get('x-request-id'));
  return { gw, alice, ttag, bobEntry, recordOf };
}

test('/api: a grant or revoke another writer overtook is 409 CONFLICT CONCURRENT_CHANGE, recorded as an error with that code', async (t) => {
  const { alice, ttag, bobEntry, recordOf } = await overtakingGateway(t);
  const path = `/api/keys/${pathTtag(ttag)}/acl/bob`;
  const granted = await alice.put(path, { rights: ['read', 'export'] });
  t.is(granted.status, 409, granted.text);
  t.like(granted.body, { code: 'CONFLICT', reason: 'CONCURRENT_CHANGE' });
  t.is(typeof granted.body.detail, 'string');
  t.is(await bobEntry(), undefined, 'the ACL shows the overtaking revoke');
  t.like(await recordOf(granted), { operation: 'acl.put', outcome: 'error', status: 409, code: 'CONFLICT' });
  const revoked = await alice.del(path);
  t.is(revoked.status, 409, revoked.text);
  t.like(revoked.body, { code: 'CONFLICT', reason: 'CONCURRENT_CHANGE' });
  t.deepEqual(await bobEntry(), { principal: 'bob', rights: ['read'] }, 'the ACL shows the overtaking grant');
  t.like(await recordOf(revoked), { operation: 'acl.delete', outcome: 'error', status: 409, code: 'CONFLICT' });
});

test('seven operations: a grant or revoke another writer overtook took effect, and is answered as the success it was (seed 000 has no 409), never a 500', async (t) => {
  const { gw, alice, ttag, bobEntry, recordOf } = await overtakingGateway(t);
  const headers = { 'X-Session': alice.sessionId };
  const granted = await gw.call('POST', '/keys/grant', { headers, body: { ttag, grantee: 'bob' } });
  t.is(granted.status, 200, granted.text);
  t.like(granted.body, { ok: true, grantee: { user: 'bob' } });
  t.regex(granted.body.grantee.principalId, /^[0-9a-f]{16}$/);
  t.is(await bobEntry(), undefined, 'the ACL shows the overtaking revoke');
  t.like(await recordOf(granted), { operation: 'keys.grant', object: `${ttag} bob`, outcome: 'ok', status: 200 });
  const revoked = await gw.call('POST', '/keys/revoke', { headers, body: { ttag, grantee: 'bob' } });
  t.is(revoked.status, 200, revoked.text);
  t.deepEqual(revoked.body, { ok: true });
  t.deepEqual(await bobEntry(), { principal: 'bob', rights: ['read'] }, 'the ACL shows the overtaking grant');
  t.like(await recordOf(revoked), { operation: 'keys.revoke', object: `${ttag} bob`, outcome: 'ok', status: 200 });
});
