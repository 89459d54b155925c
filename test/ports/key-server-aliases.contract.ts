import test from 'ava';
import { Secret } from '../../src/domain/secret/secret.js';
import type { KeyServerConnection } from '../../src/ports/key-server.port.js';
import type { KeyServerFactory, KeyServerUnderTest } from './key-server-under-test.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? 'NO_CODE';
  }
}

async function signIn(ks: KeyServerUnderTest, name: string): Promise<KeyServerConnection> {
  return await ks.keyServer.connect((await ks.keyServer.login(name, new Secret(`${name}-pw`))).token);
}

/**
 * Aliases and last use through the KeyServer port (docs/spec.md §4.23 items 3 and 6), run against one
 * adapter: what the daemon's wire carries (`resolved`, the alias views, the last use) as the engine answers it.
 */
export function keyAliasesContract(name: string, make: KeyServerFactory): void {
  const title = (behaviour: string) => `${name} key server: ${behaviour}`;

  test(title('resolves alias/NAME for every operation on a key, answers the ttag it resolved to, and keeps the last use'), async (t) => {
    const ks = await make();
    t.teardown(() => ks.close());
    const alice = await signIn(ks, 'alice');
    const bob = await signIn(ks, 'bob');
    const { ttag } = await alice.call('generateKey', { keyLen: 16 });
    t.like(await alice.call('putAlias', { alias: 'contract', ttag }), { alias: 'contract', ttag });
    const sealed = await alice.call('encrypt', { ttag: 'alias/contract', request: { plaintext: Buffer.from('hi') } });
    t.is(sealed.resolved, ttag);
    t.false('resolved' in (await alice.call('encrypt', { ttag, request: { plaintext: Buffer.from('hi') } })));
    const { ciphertext, iv, authTag } = sealed;
    t.deepEqual(await alice.call('decrypt', { ttag: 'alias/contract', request: { ciphertext, iv, authTag } }), {
      plaintext: Buffer.from('hi'),
      resolved: ttag,
    });
    t.like(await alice.call('exportKey', { ttag: 'alias/contract' }), { version: 1, resolved: ttag });
    t.like(await alice.call('readKey', { ttag: 'alias/contract' }), { ttag, lastUsedOperation: 'encrypt' });
    t.deepEqual(await alice.call('accessRights', { ttag: 'alias/contract' }), {
      rights: ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate', 'tag', 'sign'],
      resolved: ttag,
    });
    t.like(await alice.call('grant', { ttag: 'alias/contract', principal: 'bob', rights: ['mac'] }), { resolved: ttag });
    const outcomes = await bob.call('cryptoBatch', {
      operation: 'mac',
      items: [
        { ttag: 'alias/contract', data: Buffer.from('m') },
        { ttag: 'alias/nothing', data: Buffer.from('m') },
        { ttag, data: Buffer.from('m') },
      ],
    });
    t.like(outcomes[0], { ok: true, resolved: ttag });
    t.like(outcomes[1], { ok: false, code: 'NOT_FOUND' });
    t.false('resolved' in outcomes[1]! || 'resolved' in outcomes[2]!);
    t.is(await codeOf(bob.call('putAlias', { alias: 'theirs', ttag })), 'ACL_DENIED');
    t.is(await codeOf(alice.call('putAlias', { alias: 'again', ttag: 'alias/contract' })), 'BAD_REQUEST');
    t.deepEqual(
      (await bob.call('listAliases', { limit: 10 })).items.map((item) => item.alias),
      ['contract'],
      'a grantee sees the aliases of the keys granted to it',
    );
    t.deepEqual(await alice.call('deleteAlias', { alias: 'contract' }), { ttag });
    t.is(await codeOf(alice.call('readKey', { ttag: 'alias/contract' })), 'NOT_FOUND');
  });
}
