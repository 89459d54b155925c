import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import type { AuditRecord } from '../../src/domain/audit/audit.js';
import { clientKeyPair } from '../_support/client-key.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { startFaultyGateway } from '../_support/gateway.js';

/** An audit log whose pending appends wait until the test lets them land (or fail). */
class GatedAuditLog extends MemoryAuditLog {
  #gate: { release(): void; fail(): void } | undefined;
  held = 0;

  hold(): void {
    this.#gate = undefined;
    this.held = 0;
    this.holding = true;
  }

  holding = false;

  async release(ok = true): Promise<void> {
    while (this.#gate === undefined) await new Promise((done) => setImmediate(done));
    if (ok) this.#gate.release();
    else this.#gate.fail();
    this.holding = false;
  }

  override async append(record: AuditRecord): Promise<void> {
    if (this.holding && record.outcome === 'pending') {
      this.held++;
      await new Promise<void>((release, fail) => (this.#gate = { release, fail: () => fail(new Error('disk full')) }));
    }
    return super.append(record);
  }
}

for (const surface of ['root', 'api'] as const) {
  test(`${surface} export: the key material is read only once the pending record landed, and not at all when it fails`, async (t) => {
    const log = new GatedAuditLog();
    const gw = await startFaultyGateway(t, {}, { auditLog: new FaultyAuditLog(log) });
    const alice = await gw.login('alice');
    const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag as string;
    const exportOnce = () =>
      surface === 'root'
        ? gw.call('POST', '/keys/export', { headers: { 'X-Session': alice }, body: { ttag, clientPubKey: clientKeyPair().publicKey } })
        : gw.call('POST', `/api/keys/${encodeURIComponent(ttag)}/export`, {
            headers: { Authorization: `Bearer ${alice}` },
            body: { clientPubKey: clientKeyPair().publicKey },
          });

    gw.keyServerCalls.length = 0;
    log.hold();
    const landed = exportOnce();
    while (log.held === 0) await new Promise((done) => setImmediate(done));
    for (let i = 0; i < 20; i++) await new Promise((done) => setImmediate(done));
    t.false(gw.keyServerCalls.includes('exportKey'), 'no key material read while the record is in flight');
    await log.release();
    const reply = await landed;
    t.is(reply.status, 200);
    t.true('wrapped' in reply.body);
    t.true(gw.keyServerCalls.includes('exportKey'));

    gw.keyServerCalls.length = 0;
    log.hold();
    const refused = exportOnce();
    await log.release(false);
    const failed = await refused;
    t.is(failed.status, surface === 'root' ? 500 : 503);
    t.false('wrapped' in failed.body);
    t.deepEqual(gw.keyServerCalls, [], 'a refused record reads nothing');
  });
}

test('export with a point off the curve is a bad request, and the record still settles before the answer', async (t) => {
  const log = new MemoryAuditLog();
  const gw = await startFaultyGateway(t, {}, { auditLog: log });
  const alice = await gw.login('alice');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag as string;
  const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64');
  const reply = await gw.call('POST', '/keys/export', { headers: { 'X-Session': alice }, body: { ttag, clientPubKey: offCurve } });
  t.is(reply.status, 400);
  t.regex(JSON.stringify(reply.body), /not a point on P-256/);
  t.false(gw.keyServerCalls.includes('exportKey'));
  const page = await log.query({ limit: 10 });
  const record = page.items.find((r) => r.operation === 'keys.export');
  t.like(record, { outcome: 'error', status: 400, code: 'BAD_REQUEST' });
  t.false(page.items.some((r) => r.outcome === 'pending'));
});

for (const surface of ['root', 'api'] as const) {
  test(`${surface} export: a refused record wins over a bad client key, and the key server reads nothing`, async (t) => {
    const log = new FaultyAuditLog(new MemoryAuditLog());
    const gw = await startFaultyGateway(t, {}, { auditLog: log });
    const alice = await gw.login('alice');
    const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag as string;
    const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64');
    gw.keyServerCalls.length = 0;
    log.faults.down = true;
    const reply =
      surface === 'root'
        ? await gw.call('POST', '/keys/export', { headers: { 'X-Session': alice }, body: { ttag, clientPubKey: offCurve } })
        : await gw.call('POST', `/api/keys/${encodeURIComponent(ttag)}/export`, {
            headers: { Authorization: `Bearer ${alice}` },
            body: { clientPubKey: offCurve },
          });
    t.is(reply.status, surface === 'root' ? 500 : 503);
    t.regex(JSON.stringify(reply.body), surface === 'root' ? /audit log unavailable/ : /AUDIT_UNAVAILABLE/);
    t.deepEqual(gw.keyServerCalls, []);
  });
}
