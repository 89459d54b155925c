import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { type ApiSession, signIn } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { fillDisk, freeDisk, smallDisk, withSmallDisk } from '../_support/small-disk.js';

/**
 * docs/spec.md §9.2: every key in the key store is named by the audit log, and a key named only by a
 * refused creation was undone (expired). 20 writers create keys on both surfaces while the SQLite
 * audit directory's disk is full for two seconds; the key store's own table is then compared with
 * every record the auditor reads.
 */

const WRITERS = 20;
const REQUESTS_PER_WRITER = 80;
const FULL_FOR_MS = 2_000;

interface Named {
  readonly ok: Set<string>;
  readonly refused: Set<string>;
}

/** Every object the audit log names, as the auditor reads it page by page: by an ok record, or by a refused one. */
async function namedObjects(auditor: ApiSession): Promise<Named> {
  const named: Named = { ok: new Set(), refused: new Set() };
  let path = '/api/audit?limit=500';
  for (;;) {
    const page = await auditor.get(path);
    if (page.status !== 200) throw new Error(`audit read: ${page.status} ${page.text}`);
    for (const item of page.body.items as { object?: string; outcome: string }[]) {
      if (item.object !== undefined) (item.outcome === 'ok' ? named.ok : named.refused).add(item.object);
    }
    if (page.body.next === undefined) return named;
    path = `/api/audit?limit=500&cursor=${encodeURIComponent(page.body.next)}`;
  }
}

/** The keys in the key store (its own table), with whether each is expired. */
function storedKeys(file: string): { ttag: string; expired: boolean }[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT ttag, expired FROM keys').all() as { ttag: string; expired: number }[]).map((row) => ({
      ttag: row.ttag,
      expired: row.expired !== 0,
    }));
  } finally {
    db.close();
  }
}

/** The stored keys the audit log does not account for: named by nothing, or named only by a refusal and still live. */
function unaccounted(keys: readonly { ttag: string; expired: boolean }[], named: Named): string[] {
  return keys.filter(({ ttag, expired }) => !named.ok.has(ttag) && !(named.refused.has(ttag) && expired)).map(({ ttag }) => ttag);
}

withSmallDisk(
  'with the SQLite audit disk full for a while under 20 writers, every key in the store is named by the audit, or undone and named',
  async (t) => {
    const disk = smallDisk(t, '32m');
    const dataDir = scratchDir('keygate-disk-full-');
    const gw = await startGateway(t, {
      keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin, dataDir, store: 'sqlite' },
      audit: { kind: 'sqlite', file: join(disk, 'audit.db') },
    });
    const sessions = [await signIn(gw, 'alice'), await signIn(gw, 'bob')];
    let created = 0;
    let refused = 0;
    let full: Promise<void> | undefined;
    const writer = async (w: number) => {
      const session = sessions[w % 2]!;
      for (let i = 0; i < REQUESTS_PER_WRITER; i += 1) {
        const reply =
          i % 3 === 0
            ? await gw.call('POST', '/keys', { headers: { 'X-Session': session.sessionId } })
            : await session.post('/api/keys', { keyLen: 16 });
        if (reply.status < 300) created += 1;
        else refused += 1;
        // The disk fills once the load is under way, and is freed two seconds later by this test's clock.
        if (full === undefined && created >= 200) {
          fillDisk(disk);
          full = sleep(FULL_FOR_MS).then(() => freeDisk(disk));
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    await full;
    t.true(refused > 0, 'some creations were refused while the disk was full');
    t.true(created > 200, `${created} creations were answered`);

    // Undos and the records that name them are written once the answers are out, a late record retried
    // on the gateway's clock: move it on between looks (2 s a round covers every retry's pause), boundedly.
    const auditor = await signIn(gw, 'audra');
    const file = join(dataDir, 'keyserver.db');
    let left: string[] = [];
    let keys: { ttag: string; expired: boolean }[] = [];
    for (let round = 0; round < 60; round += 1) {
      keys = storedKeys(file);
      const named = await namedObjects(auditor).catch(() => undefined);
      if (named !== undefined) left = unaccounted(keys, named);
      if (named !== undefined && left.length === 0) break;
      gw.clock.advance(2_000);
      await sleep(250);
    }
    t.true(keys.length >= created, 'the store holds every key answered');
    t.deepEqual(
      left,
      [],
      `${left.length} of ${keys.length} keys in the store are named by no ok record and were not undone under a record naming them`,
    );
  },
);
