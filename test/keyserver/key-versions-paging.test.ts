import test from 'ava';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { codeOf, engineOn, openStore, STORE_KINDS, tokensFor } from '../_support/engine-stores.js';
import { startTestPostgres } from '../_support/postgres.js';

/**
 * docs/spec.md §4.22 items 1 and 10: the key view lists the newest 20 versions and counts the rest;
 * the versions operation pages through all of them, newest first, one call a page, on every store.
 */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const VERSIONS = 250;

for (const kind of STORE_KINDS) {
  const check = kind === 'postgres' && postgres.url === undefined ? test.skip : test;
  if (kind === 'postgres' && postgres.url === undefined) console.log(`key-versions-paging on postgres skipped: ${postgres.reason}`);

  check(
    `${kind}: a key of ${VERSIONS} versions is listed page by page, newest first, every version exactly once; the view lists the newest 20`,
    async (t) => {
      const { engine, store } = await engineOn(t, await openStore(kind, postgres), undefined, { maxKeyVersions: 300 });
      const { alice, bob } = await tokensFor(engine, store, ['alice', 'bob']);
      const { ttag } = await runOperation(engine, 'generateKey', alice!, { keyLen: 16 });
      for (let n = 2; n <= VERSIONS; n += 1) await runOperation(engine, 'rotateKey', alice!, { ttag });

      const view = await runOperation(engine, 'readKey', alice!, { ttag });
      t.is(view.version, VERSIONS);
      t.deepEqual(
        view.versions.map((listed) => listed.version),
        Array.from({ length: 20 }, (_, i) => VERSIONS - 19 + i),
        'the view keeps its order (oldest first) over the newest 20',
      );
      t.is(view.versionsOmitted, VERSIONS - 20);

      const seen: number[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await runOperation(engine, 'keyVersions', alice!, { ttag, limit: 64, ...(cursor === undefined ? {} : { cursor }) });
        t.true(page.complete);
        t.true(page.items.length <= 64);
        seen.push(...page.items.map((item) => item.version));
        cursor = page.next;
        pages += 1;
        // A rotation between two pages adds above the first page only: the rest of the listing is unchanged.
        if (pages === 1) await runOperation(engine, 'rotateKey', alice!, { ttag });
      } while (cursor !== undefined);
      t.is(pages, Math.ceil(VERSIONS / 64));
      t.deepEqual(
        seen,
        Array.from({ length: VERSIONS }, (_, i) => VERSIONS - i),
        'every version once, newest first',
      );

      const whole = await runOperation(engine, 'keyVersions', alice!, { ttag, limit: 1000 });
      t.is(whole.items.length, VERSIONS + 1);
      t.is(whole.next, undefined);
      t.like(whole.items.at(-1), { version: 1, state: 'active' });

      t.is(await codeOf(() => runOperation(engine, 'keyVersions', alice!, { ttag, limit: 0 })), 'BAD_REQUEST');
      t.is(await codeOf(() => runOperation(engine, 'keyVersions', alice!, { ttag, limit: 1001 })), 'BAD_REQUEST');
      t.is(await codeOf(() => runOperation(engine, 'keyVersions', alice!, { ttag, limit: 10, cursor: 'not-a-cursor' })), 'BAD_REQUEST');
      t.is(
        await codeOf(() => runOperation(engine, 'keyVersions', bob!, { ttag, limit: 10 })),
        'ACL_DENIED',
        'paging needs the right read, as the view',
      );
    },
  );
}
