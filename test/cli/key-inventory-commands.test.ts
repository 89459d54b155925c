import test from 'ava';
import { startCliGateway } from '../_support/cli-gateway.js';
import { killAllGateways } from '../_support/gateway-process.js';

const cli = await startCliGateway('inventory');
test.after.always(killAllGateways);
const { keygate } = cli;

test('keys list, tag and untag through the real keygate binary: filters, one page and its next cursor', async (t) => {
  const env = await cli.signInAdmin();
  // Calls that do not depend on each other run at once: each is a process of its own.
  const created = await Promise.all(['web-1', 'web-2', 'db-1'].map((label) => keygate(['keys', 'create', '--label', label], env)));
  for (const reply of created) t.is(reply.status, 0, reply.stderr);
  const made = created.map((reply) => reply.stdout.trim());
  const [tagged, taggedDev] = await Promise.all([
    keygate(['keys', 'tag', made[0]!, 'env', 'prod'], env),
    keygate(['keys', 'tag', made[2]!, 'env', 'dev'], env),
  ]);
  t.is(tagged.status, 0, tagged.stderr);
  t.is(tagged.stdout, 'env: prod\n');
  t.is(taggedDev.status, 0);

  const [all, webReply, prod, bothReply, first] = await Promise.all([
    keygate(['keys', 'list', '--json'], env),
    keygate(['keys', 'list', '--q', 'web-', '--json'], env),
    keygate(['keys', 'list', '--tag', 'env:prod', '--owner', 'admin', '--state', 'active'], env),
    keygate(['keys', 'list', '--tag', 'env', '--json'], env),
    keygate(['keys', 'list', '--limit', '2'], env),
  ]);
  t.is(all.status, 0, all.stderr);
  t.deepEqual((JSON.parse(all.stdout).items as { ttag: string }[]).map((key) => key.ttag).sort(), [...made].sort());
  const web = JSON.parse(webReply.stdout);
  t.deepEqual((web.items as { label: string }[]).map((key) => key.label).sort(), ['web-1', 'web-2']);
  t.is(prod.status, 0, prod.stderr);
  t.regex(prod.stdout, /^TTAG\s+STATE\s+OWNER\s+CREATED\s+LABEL\s+TAGS\n/);
  t.true(prod.stdout.includes(made[0]!) && prod.stdout.includes('env:prod'));
  t.is(prod.stdout.split('\n').filter((line) => line !== '').length, 2, 'the heading and one key');
  t.is(JSON.parse(bothReply.stdout).items.length, 2, '--tag NAME: any value');

  const next = /^next: (\S+)$/m.exec(first.stdout)?.[1];
  t.truthy(next, 'a page that is not the last names its next cursor');
  const [restReply, untagged, badLimit, missing, refused] = await Promise.all([
    keygate(['keys', 'list', '--limit', '2', '--cursor', next!, '--json'], env),
    keygate(['keys', 'untag', made[0]!, 'env'], env),
    keygate(['keys', 'list', '--limit', '0'], env),
    keygate(['keys', 'tag', made[0]!, 'env'], env),
    keygate(['keys', 'list', '--state', 'gone'], env),
  ]);
  const rest = JSON.parse(restReply.stdout);
  t.is(rest.items.length, 1);
  t.false('next' in rest);
  t.is(untagged.status, 0, untagged.stderr);
  t.deepEqual(JSON.parse((await keygate(['keys', 'show', made[0]!, '--json'], env)).stdout).tags, {});
  t.not(badLimit.status, 0);
  t.regex(badLimit.stderr, /--limit/);
  t.not(missing.status, 0);
  t.regex(missing.stderr, /TTAG NAME VALUE/);
  t.not(refused.status, 0);
  t.regex(refused.stderr, /state/);
});
