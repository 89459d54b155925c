import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { SystemClock } from '../../src/adapters/clock/system-clock.js';
import { MemorySessionStore } from '../../src/adapters/session-store/memory-session-store.js';
import { sessionKey } from '../../src/domain/session/session-id.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/** Every text form a secret could be written in. */
function forms(secret: Buffer | string): string[] {
  if (typeof secret === 'string') return [secret];
  return [secret.toString('hex'), secret.toString('base64'), secret.toString('base64url')];
}

test('a full flow through the real app leaves no secret in any stored audit row or in the database files', async (t) => {
  const dir = scratchDir('keygate-audit-secrets-');
  const file = join(dir, 'audit.db');
  const sessions = new MemorySessionStore(new SystemClock());
  const gw = await startGateway(t, { audit: { kind: 'sqlite', file } }, { sessionStore: sessions });
  const secrets: (Buffer | string)[] = [PASSWORDS.alice, PASSWORDS.bob, 'alice-wrong-password-9'];
  const login = async (user: 'alice' | 'bob') => {
    const sessionId = await gw.login(user);
    const token = (await sessions.get(sessionKey(sessionId)))!.token.reveal();
    secrets.push(sessionId, token);
    return { 'X-Session': sessionId };
  };
  const alice = await login('alice');
  const bob = await login('bob');
  const ttag = (await gw.call('POST', '/keys', { headers: alice })).body.ttag;
  const grant = await gw.call('POST', '/keys/grant', { headers: alice, body: { ttag, grantee: 'bob' } });
  for (const headers of [alice, bob]) {
    const client = clientKeyPair();
    const exported = await gw.call('POST', '/keys/export', { headers, body: { ttag, clientPubKey: client.publicKey } });
    t.is(exported.status, 200);
    secrets.push(client.unwrap(exported.body.wrapped), client.privateKey, client.publicKey, exported.body.wrapped.ciphertext);
  }
  const revoke = await gw.call('POST', '/keys/revoke', { headers: alice, body: { ttag, grantee: 'bob' } });
  const logout = await gw.call('POST', '/logout', { headers: bob });
  const failed = await gw.call('POST', '/login', { body: { user: 'alice', password: 'alice-wrong-password-9' } });
  t.deepEqual([grant.status, revoke.status, logout.status, failed.status], [200, 200, 200, 401]);
  await gw.close();

  const db = new Database(file, { readonly: true });
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  const rows = tables.flatMap(({ name }) => db.prepare(`SELECT * FROM "${name}"`).all());
  db.close();
  const operations = (rows as { operation?: string; outcome?: string }[])
    .filter((r) => r.operation)
    .map((r) => `${r.operation}:${r.outcome}`);
  // Append-only: each sensitive operation is a pending entry and its outcome entry.
  const outcomes = [
    'keys.export:ok',
    'keys.export:ok',
    'keys.generate:ok',
    'keys.grant:ok',
    'keys.revoke:ok',
    'login:denied',
    'login:ok',
    'login:ok',
    'logout:ok',
  ];
  const pending = outcomes.map((entry) => `${entry.split(':')[0]}:pending`);
  t.deepEqual(operations.sort(), [...outcomes, ...pending].sort(), 'the flow was recorded, so the scan below has something to look at');
  const dump = JSON.stringify(rows);
  const bytes = ['audit.db', 'audit.db-wal'].filter((name) => existsSync(join(dir, name))).map((name) => readFileSync(join(dir, name)));
  t.is(secrets.length, 15);
  for (const secret of secrets) {
    for (const form of forms(secret)) {
      t.false(dump.includes(form), `a stored row holds a secret (${form.slice(0, 6)}...)`);
      for (const content of bytes) t.is(content.indexOf(form), -1, 'a database file holds a secret');
    }
    if (Buffer.isBuffer(secret)) for (const content of bytes) t.is(content.indexOf(secret), -1, 'a database file holds raw key bytes');
  }
});
