import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { responses } from '../../src/transports/koa/api/api-responses.js';
import { bearer, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { auditCli } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

/** docs/spec.md §4.25 item 8, §9.1 `keyType`, `alg`, `kid`: a signature's record names them, on every audit store. */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
let schemas = 0;
/** The sign route comes with docs/spec.md §4.25 item 3's own work: until the served document has it, these tests are skipped. */
const signServed =
  (JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, unknown> }).paths[
    '/api/crypto/sign'
  ] !== undefined;

type AuditStore = 'memory' | 'sqlite' | 'postgres';

/** A gateway recording into memory, a SQLite file or a PostgreSQL schema of its own, and the offline verify of that log. */
async function recording(t: ExecutionContext, store: AuditStore) {
  const dir = scratchDir(`keygate-audit-signing-${store}-`);
  const integrity = { writer: 'gw-sign', dataDir: dir, checkpointEvery: 4 };
  if (store === 'memory') return { gw: await startGateway(t, { auditIntegrity: integrity }), verify: undefined };
  if (store === 'sqlite') {
    const file = join(dir, 'audit.db');
    const gw = await startGateway(t, { audit: { kind: 'sqlite', file }, auditIntegrity: integrity });
    return { gw, verify: () => auditCli(['verify', '--sqlite', file, '--data-dir', dir]) };
  }
  const schema = `audit_signing_${process.pid}_${schemas++}`;
  const audit = { kind: 'postgres' as const, url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 };
  const gw = await startGateway(t, { audit, auditIntegrity: integrity });
  return { gw, verify: () => auditCli(['verify', '--postgres', postgres.url!, '--schema', schema, '--data-dir', dir]) };
}

for (const store of ['memory', 'sqlite', 'postgres'] as const) {
  const check = testUnless(
    !signServed
      ? 'POST /api/crypto/sign is not served yet (docs/spec.md §4.25 item 3)'
      : store === 'postgres'
        ? postgres.reason
        : undefined,
  );
  check(
    `${store}: a signature's record names the key's type, the algorithm, the version and its kid, and the log verifies clean`,
    async (t) => {
      const { gw, verify } = await recording(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice, { type: 'ec-p256' });
      const message = Buffer.from('pay 10 to bob').toString('base64');
      const signed = await alice.post('/api/crypto/sign', { ttag, alg: 'ES256', message });
      t.is(signed.status, 200, signed.text);
      const { kid, version } = signed.body as { kid: string; version: number; signature: string };
      const published = await alice.get(`/api/keys/${pathTtag(ttag)}/public-key`);
      t.is(published.status, 200, published.text);
      // Checked by node:crypto with the public key alone: the record below is a real signature's.
      t.true(
        verifySignature(
          'sha256',
          Buffer.from(message, 'base64'),
          { key: createPublicKey(published.body.pem), dsaEncoding: 'ieee-p1363' },
          Buffer.from(signed.body.signature, 'base64'),
        ),
      );

      const auditor = await signIn(gw, 'audra');
      const page = await auditor.get('/api/audit?operation=crypto.sign');
      t.is(page.status, 200, page.text);
      t.true(responses.auditPage.safeParse(page.body).success, 'the answer is the documented AuditRecord');
      t.is(page.body.items.length, 1);
      const record = page.body.items[0];
      t.like(record, { principal: 'alice', object: ttag, outcome: 'ok', status: 200, keyType: 'ec-p256', alg: 'ES256', version, kid });
      t.false(JSON.stringify(record).includes(message), 'never the message');
      t.false(JSON.stringify(record).includes(signed.body.signature), 'never the signature');
      t.like((await auditor.get(`/api/audit/${record.id}`)).body, { keyType: 'ec-p256', alg: 'ES256', version, kid });
      t.like((await auditor.get('/api/audit?operation=keys.public-key')).body.items[0], { keyType: 'ec-p256', kid });

      const online = await gw.call('GET', '/api/audit/verify', { headers: bearer(auditor.sessionId) });
      t.like(online, { status: 200, body: { ok: true } });
      if (verify === undefined) return;
      const offline = await verify();
      t.is(offline.status, 0, offline.stderr);
      t.like(offline.answer, { ok: true });
    },
  );
}
