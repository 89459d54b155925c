import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { startTestPostgres } from '../_support/postgres.js';
import { testUnless } from '../_support/skip.js';
import { startGatewaysSharingPostgres } from '../_support/store-gateways.js';

const postgres = startTestPostgres();
const withPostgres = testUnless(postgres.reason);
test.after.always(() => postgres.stop());

const DAY = 86_400_000;

/** Waits (bounded, in short real-time polls) until `ready` holds. */
async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
  const giveUpAt = Date.now() + 10_000;
  while (!(await ready())) {
    if (Date.now() > giveUpAt) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

withPostgres(
  'two gateways on one PostgreSQL key store, both sweeping and recording: the key is destroyed once and its keys.destroy record written once between them',
  async (t) => {
    const { first, second } = await startGatewaysSharingPostgres(t, postgres.url!, 'keygate-deletion-');
    const alice = await signIn(first, 'alice');
    const { ttag } = await createKey(alice);
    t.is((await alice.post(`/api/keys/${pathTtag(ttag)}/schedule-deletion`, { pendingDays: 7 })).status, 200);
    // Both clocks pass deletionAt together: both key servers sweep, both gateways then ask for records.
    first.clock.advance(7 * DAY + 1);
    second.clock.advance(7 * DAY + 1);
    const reader = await signIn(second, 'alice');
    await until('the key reads deleted', async () => (await reader.get(`/api/keys/${pathTtag(ttag)}`)).body.state === 'deleted');
    first.clock.advance(61_000);
    second.clock.advance(61_000);
    const auditors = [await signIn(first, 'audra'), await signIn(second, 'audra')];
    const records = async () =>
      (await Promise.all(auditors.map(async (auditor) => (await auditor.get('/api/audit?operation=keys.destroy')).body.items))).flat();
    await until('the destruction is recorded', async () => (await records()).length > 0);
    first.clock.advance(61_000);
    second.clock.advance(61_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const all = await records();
    t.is(all.length, 1, 'one record between the two gateways');
    t.like(all[0], { principal: 'keyserver:sweep', object: ttag, outcome: 'ok' });
  },
);
