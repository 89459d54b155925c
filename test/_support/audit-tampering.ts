import { execFile } from 'node:child_process';
import type { AuditBreakKind } from '../../src/domain/audit/audit-verify.js';
import { clientKeyPair } from './client-key.js';
import type { TestGateway } from './gateway.js';

/** Direct SQL on an audit database: `?` placeholders (translated for PostgreSQL). */
export interface RawDb {
  all(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
}

const WRITER = 'gw-a';

/** A history through the real surface: logins, keys made and exported; answers an admin bearer. */
export async function makeHistory(gw: TestGateway): Promise<Record<string, string>> {
  const alice = await gw.login('alice');
  for (let i = 0; i < 5; i += 1) {
    const created = await gw.call('POST', '/keys', { headers: { 'X-Session': alice } });
    if (created.status !== 200) throw new Error(`POST /keys answered ${created.status}`);
    gw.clock.advance(10);
  }
  await gw.call('GET', '/api/session', { headers: { Authorization: `Bearer ${alice}` } });
  return { Authorization: `Bearer ${await gw.login('admin')}` };
}

/** One kind of tampering, done with SQL by someone who can write the database but holds no key. */
export interface Tampering {
  readonly kind: AuditBreakKind;
  /** The seq the first break is reported at (a function of the database when it depends on it). */
  readonly seq: (db: RawDb) => Promise<number>;
  tamper(db: RawDb): Promise<void>;
}

const lastCheckpoint = async (db: RawDb) =>
  Number((await db.all('SELECT MAX(seq) AS seq FROM audit_checkpoint WHERE writer = ?', [WRITER]))[0]!.seq);
const fixed = (seq: number) => async () => seq;
const shiftFrom = async (db: RawDb, seq: number, by: number) => {
  // Two steps, so that no two rows hold the same (writer, seq) on the way.
  await db.run('UPDATE audit_entry SET seq = seq + 100000 WHERE writer = ? AND seq >= ?', [WRITER, seq]);
  await db.run('UPDATE audit_entry SET seq = seq - 100000 + ? WHERE writer = ? AND seq >= ?', [by, WRITER, 100000 + seq]);
};

export const TAMPERINGS: readonly Tampering[] = [
  {
    kind: 'edited',
    seq: fixed(5),
    tamper: (db) => db.run("UPDATE audit_entry SET principal = 'mallory' WHERE writer = ? AND seq = 5", [WRITER]),
  },
  {
    kind: 'deleted',
    seq: fixed(6),
    tamper: (db) => db.run('DELETE FROM audit_entry WHERE writer = ? AND seq = 5', [WRITER]),
  },
  {
    kind: 'inserted',
    seq: fixed(5),
    async tamper(db) {
      await shiftFrom(db, 5, 1);
      await db.run(
        `INSERT INTO audit_entry (id, entry, at, request_id, principal, operation, outcome, status, writer, seq, prev, mac)
         SELECT ?, 'record', at, request_id, 'alice', 'keys.export', 'ok', 200, writer, 5, prev, ? FROM audit_entry WHERE writer = ? AND seq = 6`,
        ['f'.repeat(32), 'ab'.repeat(32), WRITER],
      );
    },
  },
  {
    kind: 'reordered',
    seq: fixed(5),
    async tamper(db) {
      await db.run('UPDATE audit_entry SET seq = -1 WHERE writer = ? AND seq = 5', [WRITER]);
      await db.run('UPDATE audit_entry SET seq = 5 WHERE writer = ? AND seq = 6', [WRITER]);
      await db.run('UPDATE audit_entry SET seq = 6 WHERE writer = ? AND seq = -1', [WRITER]);
    },
  },
  {
    kind: 'truncated',
    seq: lastCheckpoint,
    async tamper(db) {
      await db.run('DELETE FROM audit_entry WHERE writer = ? AND seq > ?', [WRITER, (await lastCheckpoint(db)) - 2]);
    },
  },
  {
    kind: 'forged-checkpoint',
    seq: lastCheckpoint,
    async tamper(db) {
      await db.run('UPDATE audit_checkpoint SET mac = ? WHERE writer = ? AND seq = ?', ['cd'.repeat(32), WRITER, await lastCheckpoint(db)]);
    },
  },
];

export const TAMPER_WRITER = WRITER;

const bin = new URL('./keygate-from-source.js', import.meta.url).pathname;

/** Runs `keygate audit ...` to its end (bounded): its status and its JSON answer when it printed one. */
// biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON answer field by field
export function auditCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number; answer: any; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TE_')));
  return new Promise((done) => {
    execFile(process.execPath, [bin, 'audit', ...args], { env: { ...clean, ...env }, timeout: 90_000 }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      let answer: unknown;
      try {
        answer = JSON.parse(stdout);
      } catch {
        answer = stdout;
      }
      done({ status, answer, stderr });
    });
  });
}

/**
 * A key exported on the root surface by alice, after `makeHistory`: its `keys.export` record is the
 * one a rewrite would hide (who took which key material).
 */
export async function exportAKey(gw: Pick<TestGateway, 'call' | 'login'>): Promise<void> {
  const alice = await gw.login('alice');
  const made = await gw.call('POST', '/keys', { headers: { 'X-Session': alice } });
  if (made.status !== 200) throw new Error(`POST /keys answered ${made.status}`);
  const body = { ttag: made.body.ttag, clientPubKey: clientKeyPair().publicKey };
  const exported = await gw.call('POST', '/keys/export', { headers: { 'X-Session': alice }, body });
  if (exported.status !== 200) throw new Error(`POST /keys/export answered ${exported.status}`);
}

/**
 * Two breaks in one writer, as someone who can write the database but holds no key would make them:
 * a planted one (the first login's name changed), and later the real rewrite (the export's outcome
 * now names another principal). Answers the two breaks a verifier must name, in seq order.
 */
export async function plantTwoBreaks(db: RawDb): Promise<{ writer: string; seq: number; kind: AuditBreakKind }[]> {
  const login = Number(
    (await db.all("SELECT MIN(seq) AS seq FROM audit_entry WHERE writer = ? AND operation = 'login'", [WRITER]))[0]!.seq,
  );
  const exported = Number(
    (
      await db.all("SELECT MAX(seq) AS seq FROM audit_entry WHERE writer = ? AND operation = 'keys.export' AND entry = 'outcome'", [WRITER])
    )[0]!.seq,
  );
  await db.run("UPDATE audit_entry SET principal = 'bob\uFFFD' WHERE writer = ? AND seq = ?", [WRITER, login]);
  await db.run("UPDATE audit_entry SET principal = 'bob' WHERE writer = ? AND seq = ?", [WRITER, exported]);
  return [
    { writer: WRITER, seq: login, kind: 'edited' },
    { writer: WRITER, seq: exported, kind: 'edited' },
  ];
}
