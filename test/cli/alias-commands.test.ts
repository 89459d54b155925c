import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { startCliGateway } from '../_support/cli-gateway.js';
import { killAllGateways } from '../_support/gateway-process.js';

/** `keygate aliases list|set|delete` (docs/spec.md §4.23 item 3), through the real binary and a gateway process. */
const cli = await startCliGateway('aliases');
test.after.always(killAllGateways);
const { dir, keygate } = cli;

test('aliases set, list, use by alias/NAME, move and delete through the real keygate binary', async (t) => {
  const env = await cli.signInAdmin();
  // Calls that do not depend on each other run at once: each is a process of its own.
  const [first, second] = (await Promise.all([keygate(['keys', 'create', '--json'], env), keygate(['keys', 'create', '--json'], env)])).map(
    (reply) => JSON.parse(reply.stdout) as { ttag: string },
  );

  const set = await keygate(['aliases', 'set', 'orders', first.ttag], env);
  t.is(set.status, 0, set.stderr);
  t.is(set.stdout, `orders -> ${first.ttag}\n`);
  const shown = await keygate(['keys', 'show', 'alias/orders', '--json'], env);
  t.is(shown.status, 0, shown.stderr);
  t.is(JSON.parse(shown.stdout).ttag, first.ttag);

  const moves = await Promise.all([
    keygate(['aliases', 'set', 'orders', second.ttag], env),
    keygate(['aliases', 'set', 'other', second.ttag], env),
  ]);
  t.deepEqual(
    moves.map((reply) => reply.status),
    [0, 0],
  );
  const out = join(dir, 'key.bin');
  const [listed, prefixed, exported, usage] = await Promise.all([
    keygate(['aliases', 'list', '--json'], env),
    keygate(['aliases', 'list', '--prefix', 'ord'], env),
    keygate(['keys', 'export', 'alias/orders', '--out', out], env),
    keygate(['aliases', 'set', 'orders'], env),
  ]);
  t.deepEqual(
    (JSON.parse(listed.stdout) as { alias: string; ttag: string }[]).map(({ alias, ttag }) => [alias, ttag]),
    [
      ['orders', second.ttag],
      ['other', second.ttag],
    ],
  );
  t.regex(prefixed.stdout, /^ALIAS\s+TTAG\s+UPDATED\norders\s+\S+\s+\S+\n$/);
  t.is(exported.status, 0);
  t.is(readFileSync(out).length, 16);

  t.is((await keygate(['aliases', 'delete', 'orders'], env)).stdout, 'deleted orders\n');
  const gone = await keygate(['keys', 'show', 'alias/orders'], env);
  t.not(gone.status, 0);
  t.regex(gone.stderr, /NOT_FOUND/);
  t.not(usage.status, 0);
  t.regex(usage.stderr, /ALIAS TTAG are required/);
});
