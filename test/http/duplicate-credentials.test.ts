import { connect } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { bearer } from '../_support/api-client.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { buildProof, makeSigner } from '../_support/proof-builder.js';

// RFC 9110 §5.3: a field that is not a list (Authorization, a session header) is sent once; a request
// carrying it twice names two credentials, and the gateway serves neither (docs/spec.md §4.2 item 1, §2.4 item 1).

/** One request written as raw bytes on a socket (fetch would refuse or fold the repeated header). */
async function rawCall(
  t: ExecutionContext,
  gw: TestGateway,
  lines: readonly string[],
  body = '',
): Promise<{ status: number; body: unknown }> {
  const url = new URL(gw.url);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  t.teardown(() => socket.destroy());
  const head = [...lines, `Host: ${url.host}`, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const [statusLine = '', ...rest] = text.split('\r\n');
  const payload = rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n');
  return { status: Number(statusLine.split(' ')[1]), body: payload === '' ? undefined : JSON.parse(payload) };
}

/** The audit's key creations: each refused with 400, none carried out (`ok`) or begun (`pending`). */
async function assertNoKeyCreated(t: ExecutionContext, gw: TestGateway, operation: string): Promise<void> {
  const reply = await gw.call('GET', '/api/audit?limit=100', { headers: bearer(await gw.login('audra')) });
  t.is(reply.status, 200, reply.text);
  const creations = (reply.body.items as { operation: string; outcome: string; status: number }[]).filter(
    (item) => item.operation === operation,
  );
  t.true(creations.length > 0, 'the refused request is recorded');
  t.deepEqual(
    creations.map(({ outcome, status }) => ({ outcome, status })),
    creations.map(() => ({ outcome: 'error', status: 400 })),
  );
}

test('/api: a request with two Authorization headers is 400 BAD_REQUEST and creates nothing', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const bob = await gw.login('bob');
  const reply = await rawCall(
    t,
    gw,
    ['POST /api/keys HTTP/1.1', `Authorization: Bearer ${alice}`, `Authorization: Bearer ${bob}`, 'Content-Type: application/json'],
    '{}',
  );
  t.is(reply.status, 400, JSON.stringify(reply.body));
  t.like(reply.body as object, { code: 'BAD_REQUEST' });
  t.regex(String((reply.body as { detail?: string }).detail), /Authorization/);
  await assertNoKeyCreated(t, gw, 'keys.create');
});

test('/api: the same Authorization header twice is refused as well', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const reply = await rawCall(t, gw, ['GET /api/session HTTP/1.1', `Authorization: Bearer ${alice}`, `Authorization: Bearer ${alice}`]);
  t.is(reply.status, 400, JSON.stringify(reply.body));
  t.like(reply.body as object, { code: 'BAD_REQUEST' });
});

test('the seven operations: a request with two X-Session headers is 400 with the root error body and creates nothing', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const bob = await gw.login('bob');
  const reply = await rawCall(t, gw, ['POST /keys HTTP/1.1', `X-Session: ${alice}`, `X-Session: ${bob}`]);
  t.is(reply.status, 400, JSON.stringify(reply.body));
  t.regex(String((reply.body as { error?: string }).error), /X-Session/);
  await assertNoKeyCreated(t, gw, 'keys.generate');
});

test('a bound session presenting two DPoP headers is refused and nothing is made', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const alice = await gw.login('alice');
  const ttag = (await gw.call('POST', '/api/keys', { headers: bearer(alice), body: {} })).body.ttag as string;
  const scoped = await gw.call('POST', '/api/session/scoped', {
    headers: bearer(alice),
    body: { objects: [ttag], rights: ['encrypt'], senderKey: signer.publicJwk },
  });
  t.is(scoped.status, 201, scoped.text);
  const sessionId = scoped.body.sessionId as string;
  const proof = () =>
    buildProof(signer, { method: 'GET', htu: `${gw.url}/api/session`, credential: sessionId, body: Buffer.alloc(0) }, gw.clock.now());
  const reply = await rawCall(t, gw, [
    'GET /api/session HTTP/1.1',
    `Authorization: Bearer ${sessionId}`,
    `DPoP: ${proof()}`,
    `DPoP: ${proof()}`,
  ]);
  t.true(reply.status === 400 || reply.status === 401, `${reply.status} ${JSON.stringify(reply.body)}`);
  t.like(reply.body as object, { code: 'PROOF_MALFORMED' });
});
