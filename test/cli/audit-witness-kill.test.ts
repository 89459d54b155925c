import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import pg from 'pg';
import { bearer, pathTtag } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { type GatewayProcess, killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';
import { startTestPostgres } from '../_support/postgres.js';
import { createDatabase } from '../_support/postgres-daemons.js';

/**
 * The witness (audit-head.json beside the keys) sees the head of every group commit, so a database
 * writer who deletes the newest entries while the gateway is down (after a kill -9, with no closing
 * checkpoint) cannot have the restart accepted: the boot names the loss.
 */
const postgres = startTestPostgres();
test.after.always(async () => {
  await killAllGateways();
  await postgres.stop();
});

const ADMIN_PASSWORD = 'witness-admin-password-1';
const DELETED = 15;

/** Logins, keys made, one exported, refused logins: the entries a deleter would want gone. */
async function operations(gw: GatewayProcess): Promise<void> {
  const login = await call(gw.url, 'POST', '/login', { body: { user: 'admin', password: ADMIN_PASSWORD } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  const admin = bearer(login.body.sessionId as string);
  const ttags: string[] = [];
  for (let i = 0; i < 6; i += 1) ttags.push((await call(gw.url, 'POST', '/api/keys', { headers: admin, body: {} })).body.ttag as string);
  const exported = await call(gw.url, 'POST', `/api/keys/${pathTtag(ttags[0]!)}/export`, {
    headers: admin,
    body: { clientPubKey: clientKeyPair().publicKey },
  });
  if (exported.status !== 200) throw new Error(`export: ${exported.status} ${exported.text}`);
  await Promise.all(
    Array.from({ length: 6 }, () => call(gw.url, 'POST', '/login', { body: { user: 'nobody', password: 'not-the-password' } })),
  );
}

async function killedThenTruncated(
  t: ExecutionContext,
  env: Record<string, string>,
  dataDir: string,
  deleteNewest: (writer: string) => Promise<number>,
) {
  const first = await spawnGateway(t, env);
  await operations(first);
  await first.stop('SIGKILL');
  const writer = readFileSync(join(dataDir, 'audit-writer'), 'utf8').trim();
  const kept = await deleteNewest(writer);
  const refused = await spawnGateway(t, env).then(
    (gw) => `the gateway started: ${gw.output()}`,
    (error: Error) => error.message,
  );
  t.regex(refused, /exited \(\d+\) before listening/, refused);
  t.regex(refused, /audit chain regressed/);
  t.regex(refused, new RegExp(`ends at seq ${kept}, but this writer had reached seq ${kept + DELETED}`));
}

test.serial(
  'sqlite: after a kill -9, deleting the newest entries of the audit database makes the restart refused, naming the loss',
  async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keygate-witness-kill-'));
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
    await killedThenTruncated(t, { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: ADMIN_PASSWORD }, dataDir, async (writer) => {
      const db = new Database(join(dataDir, 'audit.db'));
      try {
        const { seq } = db.prepare('SELECT MAX(seq) AS seq FROM audit_entry WHERE writer = ?').get(writer) as { seq: number };
        db.prepare('DELETE FROM audit_entry WHERE writer = ? AND seq > ?').run(writer, seq - DELETED);
        db.prepare('DELETE FROM audit_checkpoint WHERE writer = ? AND seq > ?').run(writer, seq - DELETED);
        return seq - DELETED;
      } finally {
        db.close();
      }
    });
  },
);

(postgres.reason === undefined ? test.serial : test.skip)(
  'postgres: after a kill -9, deleting the newest entries of the audit database makes the restart refused, naming the loss',
  async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keygate-witness-kill-pg-'));
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
    const url = await createDatabase(postgres.url!);
    const env = { TE_GATEWAY_DATA_DIR: dataDir, TE_KEYSERVER_ADMIN_PASSWORD: ADMIN_PASSWORD, TE_GATEWAY_AUDIT_URL: url };
    await killedThenTruncated(t, env, dataDir, async (writer) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query('SELECT MAX(seq) AS seq FROM audit_entry WHERE writer = $1', [writer]);
        const keep = Number(rows[0].seq) - DELETED;
        await client.query('DELETE FROM audit_entry WHERE writer = $1 AND seq > $2', [writer, keep]);
        await client.query('DELETE FROM audit_checkpoint WHERE writer = $1 AND seq > $2', [writer, keep]);
        return keep;
      } finally {
        await client.end();
      }
    });
  },
);
