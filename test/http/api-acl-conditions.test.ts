import type { ExecutionContext } from 'ava';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { createAuthority, createLeaf, signChallenge } from '../_support/certificates.js';
import type { TestGateway } from '../_support/gateway.js';
import type { Reply } from '../_support/http.js';
import { makeSigner, type ProofSigner } from '../_support/proof-builder.js';
import { testUnless } from '../_support/skip.js';
import { specClientKey } from '../_support/spec-unwrap.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/**
 * docs/spec.md §4.5b item 4 (grant conditions) and §4.7, through a real gateway on each key-server
 * store: an entry with `conditions: { context }` gives its rights only to a request whose context holds
 * every member; the owner is never conditioned; delegated and scoped sessions are held to it.
 */

const b64 = (text: string) => Buffer.from(text).toString('base64');
const ACME = { tenant: 'acme', stage: 'prod' };
const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

function code(reply: Reply): [number, string | undefined] {
  return [reply.status, reply.body?.code];
}

/** A CONTEXT_REQUIRED refusal names the members, never a value (docs/spec.md §4.5b item 4). */
function assertContextRequired(t: ExecutionContext, reply: Reply, names: string[], what: string): void {
  t.deepEqual(code(reply), [403, 'CONTEXT_REQUIRED'], `${what}: ${reply.text}`);
  for (const name of names) t.true(reply.body.detail.includes(name), `${what}: the detail names ${name}`);
  for (const value of ['acme', 'prod', 'globex', 'blue']) t.false(reply.body.detail.includes(value), `${what}: no value in the detail`);
}

/** svc signs in with an enrolled certificate and a registered sender key, allowed to act for `delegates`. */
async function boundService(gw: TestGateway, delegates: string[]): Promise<{ signer: ProofSigner; session: string }> {
  const admin = await gw.login('admin');
  const authority = await createAuthority('svc CA');
  const leaf = await createLeaf(authority, 'svc');
  const signer = await makeSigner('ES256');
  await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: authority.pem } });
  await gw.call('POST', '/api/trust/enrollments', { headers: bearer(admin), body: { principal: 'svc', pem: leaf.pem } });
  await gw.call('PUT', '/api/principals/svc/sender-key', { headers: bearer(admin), body: { jwk: signer.publicJwk } });
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(admin), body: { delegates } });
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem } });
  const login = await gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(leaf, challenge.body.challenge) },
  });
  if (login.status !== 201) throw new Error(`svc login: ${login.status} ${login.text}`);
  return { signer, session: login.body.sessionId as string };
}

/** A bound session's calls (each with its proof). */
function boundCalls(gw: TestGateway, signer: ProofSigner, session: string) {
  return (method: string, path: string, body?: unknown) => gw.bound(signer, method, path, { bearer: session }, body);
}

async function grant(owner: ApiSession, ttag: string, principal: string, body: unknown): Promise<Reply> {
  const reply = await owner.put(`/api/keys/${pathTtag(ttag)}/acl/${principal}`, body);
  if (reply.status !== 200) throw new Error(`grant to ${principal}: ${reply.status} ${reply.text}`);
  return reply;
}

for (const store of KEY_SERVER_STORES) {
  testUnless(storeSkipReason(store))(
    `${store}: a grant's conditions are written, read back and answered; access names them; the key list leaves the key out; a PUT without them and the root grant remove them`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const bob = await signIn(gw, 'bob');
      const { ttag } = await createKey(alice);
      const acl = `/api/keys/${pathTtag(ttag)}/acl`;

      const put = await alice.put(`${acl}/bob`, { rights: ['decrypt', 'encrypt', 'read'], conditions: { context: ACME } });
      t.is(put.status, 200, put.text);
      const entry = { principal: 'bob', rights: ['read', 'encrypt', 'decrypt'], conditions: { context: ACME } };
      t.deepEqual(put.body, entry);
      t.deepEqual((await alice.get(acl)).body.items, [entry]);
      t.deepEqual((await bob.get(`/api/keys/${pathTtag(ttag)}/access`)).body, {
        rights: [],
        conditional: [{ rights: ['read', 'encrypt', 'decrypt'], context: ACME }],
      });
      const listed = await bob.get('/api/keys');
      t.is(listed.status, 200, listed.text);
      t.false(
        listed.body.items.some((item: { ttag: string }) => item.ttag === ttag),
        'the list counts only unconditioned rights',
      );

      const refused: [unknown, string][] = [
        [{ context: {} }, 'conditions.context'],
        [{ context: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`n${i}`, 'v'])) }, 'conditions.context'],
        // A name outside the set is never repeated in the detail (docs/spec.md §4.5b item 1).
        [{ context: { 'a b': 'x' } }, 'conditions.context'],
        [{ context: { 'x\u001b[31m\ud800': 'x' } }, 'conditions.context'],
        [{ context: { tenant: 7 } }, 'conditions.context.tenant'],
        [{ context: { tenant: { nested: 'x' } } }, 'conditions.context.tenant'],
        [{ context: ACME, also: 1 }, 'conditions'],
        [{}, 'conditions.context'],
        [null, 'conditions'],
      ];
      for (const [conditions, field] of refused) {
        const reply = await alice.put(`${acl}/bob`, { rights: ['read'], conditions });
        t.deepEqual(code(reply), [400, 'BAD_REQUEST'], JSON.stringify(conditions));
        t.true(String(reply.body.detail).startsWith(`${field}: `), `${JSON.stringify(conditions)}: ${reply.body.detail}`);
        const detail = String(reply.body.detail);
        for (const piece of ['a b', '\u001b', '\ud800'])
          t.false(detail.includes(piece), `${JSON.stringify(conditions)}: a refused name is not repeated`);
      }
      t.deepEqual((await alice.get(acl)).body.items, [entry], 'a refused PUT changes nothing');

      const plain = await alice.put(`${acl}/bob`, { rights: ['read'] });
      t.deepEqual(plain.body, { principal: 'bob', rights: ['read'] }, 'a PUT without conditions removes them');
      t.deepEqual((await alice.get(acl)).body.items, [{ principal: 'bob', rights: ['read'] }]);
      t.deepEqual((await bob.get(`/api/keys/${pathTtag(ttag)}/access`)).body, { rights: ['read'] });
      t.true((await bob.get('/api/keys')).body.items.some((item: { ttag: string }) => item.ttag === ttag));

      await grant(alice, ttag, 'bob', { rights: ['encrypt'], conditions: { context: ACME } });
      const root = await gw.call('POST', '/keys/grant', { headers: { 'X-Session': alice.sessionId }, body: { ttag, grantee: 'bob' } });
      t.is(root.status, 200, root.text);
      t.deepEqual(
        (await alice.get(acl)).body.items,
        [{ principal: 'bob', rights: ['read', 'export'] }],
        'the root grant writes an unconditioned entry',
      );
    },
  );

  testUnless(storeSkipReason(store))(
    `${store}: a conditioned right serves only a request whose context meets it, on the grantee's own, a group's, a delegated and a scoped session; the owner is never conditioned`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const bob = await signIn(gw, 'bob');
      const carol = await signIn(gw, 'carol');
      const admin = await signIn(gw, 'admin');
      const { ttag } = await createKey(alice);
      await grant(alice, ttag, 'bob', { rights: ['read', 'export', 'encrypt', 'decrypt', 'mac'], conditions: { context: ACME } });
      t.is((await admin.post('/api/principals', { name: 'blue', kind: 'group' })).status, 201);
      t.is((await admin.put('/api/groups/blue/members/carol')).status, 204);
      await grant(alice, ttag, 'blue', { rights: ['encrypt'], conditions: { context: { team: 'blue' } } });
      const encrypt = (session: ApiSession, context?: Record<string, string>) =>
        session.post('/api/crypto/encrypt', { ttag, plaintext: b64('for acme'), ...(context === undefined ? {} : { context }) });

      const sealed = await encrypt(bob, { ...ACME, extra: 'more' });
      t.is(sealed.status, 200, `a context holding more than the condition meets it: ${sealed.text}`);
      const opened = await bob.post('/api/crypto/decrypt', { ttag, sealed: sealed.body.sealed, context: { ...ACME, extra: 'more' } });
      t.is(opened.status, 200, opened.text);
      t.is(Buffer.from(opened.body.plaintext, 'base64').toString(), 'for acme');
      const made = await bob.post('/api/crypto/datakey', { ttag, context: ACME });
      t.is(made.status, 200, made.text);

      const refusedEncrypt = await encrypt(bob);
      assertContextRequired(t, refusedEncrypt, ['stage', 'tenant'], 'encrypt without a context');
      assertContextRequired(t, await encrypt(bob, { ...ACME, tenant: 'globex' }), ['tenant'], 'encrypt with another value');
      assertContextRequired(
        t,
        await bob.post('/api/crypto/decrypt', { ttag, sealed: sealed.body.sealed }),
        ['tenant'],
        'decrypt without a context',
      );
      assertContextRequired(t, await bob.post('/api/crypto/datakey', { ttag }), ['tenant'], 'a data key without a context');
      assertContextRequired(t, await bob.post('/api/crypto/mac', { ttag, data: b64('m') }), ['tenant'], 'a MAC carries no context');
      assertContextRequired(
        t,
        await bob.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: specClientKey().publicKey }),
        ['tenant'],
        'an export carries no context',
      );
      assertContextRequired(t, await bob.get(`/api/keys/${pathTtag(ttag)}`), ['tenant'], 'the key view carries no context');
      t.deepEqual(code(await bob.post(`/api/keys/${pathTtag(ttag)}/rotate`)), [403, 'ACL_DENIED'], 'a right no entry gives stays denied');
      const audit = await admin.get('/api/audit?limit=500');
      const record = audit.body.items.find((item: { requestId?: string }) => item.requestId === refusedEncrypt.headers.get('x-request-id'));
      t.like(record, { operation: 'crypto.encrypt', principal: 'bob', outcome: 'denied', status: 403, code: 'CONTEXT_REQUIRED' });

      t.is((await encrypt(alice)).status, 200, 'the owner is never conditioned');
      t.is((await encrypt(carol, { team: 'blue' })).status, 200, "a group entry's condition met");
      assertContextRequired(t, await encrypt(carol, ACME), ['team'], "a group entry's condition unmet");

      // docs/spec.md §4.5b item 4: a delegated session is held to the conditions of the principal it acts for.
      const svc = await boundService(gw, ['bob']);
      const minted = await gw.bound(svc.signer, 'POST', '/api/session/delegated', { bearer: svc.session }, { principal: 'bob' });
      t.is(minted.status, 201, minted.text);
      const asBob = boundCalls(gw, svc.signer, minted.body.sessionId);
      t.is((await asBob('POST', '/api/crypto/encrypt', { ttag, plaintext: b64('x'), context: ACME })).status, 200);
      assertContextRequired(
        t,
        await asBob('POST', '/api/crypto/encrypt', { ttag, plaintext: b64('x') }),
        ['tenant'],
        'delegated, no context',
      );
      assertContextRequired(
        t,
        await asBob('POST', '/api/crypto/encrypt', { ttag, plaintext: b64('x'), context: { tenant: 'globex', stage: 'prod' } }),
        ['tenant'],
        'delegated, another value',
      );

      // A scope counts a conditioned right as held when it is minted; the condition applies at each use.
      const signer = await makeSigner('ES256');
      const scoped = await bob.post('/api/session/scoped', { objects: [ttag], rights: ['encrypt'], senderKey: signer.publicJwk });
      t.is(scoped.status, 201, scoped.text);
      t.deepEqual(scoped.body.rights, ['encrypt']);
      const inScope = boundCalls(gw, signer, scoped.body.sessionId);
      t.is((await inScope('POST', '/api/crypto/encrypt', { ttag, plaintext: b64('x'), context: ACME })).status, 200);
      assertContextRequired(
        t,
        await inScope('POST', '/api/crypto/encrypt', { ttag, plaintext: b64('x') }),
        ['tenant'],
        'scoped, no context',
      );
      const wider = await bob.post('/api/session/scoped', { objects: [ttag], rights: ['rotate'], senderKey: signer.publicJwk });
      t.deepEqual(code(wider), [403, 'ACL_DENIED'], 'a right no entry gives cannot be scoped');
    },
  );
}
