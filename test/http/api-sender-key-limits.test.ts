import { randomBytes } from 'node:crypto';
import test from 'ava';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { buildProof, makeSigner } from '../_support/proof-builder.js';

// Issue 12 §5: RSA sender and proof keys only with e = 65537 and a 2048..4096-bit modulus; EC only
// P-256 with the point on the curve.

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

/** An RSA public JWK with an odd modulus of `bits` bits and the exponent given (big-endian bytes). */
function rsaJwk(bits: number, exponent: number[]): Record<string, string> {
  const n = randomBytes(bits / 8);
  n[0]! |= 0x80;
  n[n.length - 1]! |= 1;
  return { kty: 'RSA', n: n.toString('base64url'), e: Buffer.from(exponent).toString('base64url') };
}

/** A P-256 JWK whose point is not on the curve: a real key's y with its last bit flipped. */
async function offCurveJwk(): Promise<Record<string, string>> {
  const { publicJwk } = await makeSigner('ES256');
  const y = Buffer.from(publicJwk.y!, 'base64url');
  y[31]! ^= 1;
  return { kty: 'EC', crv: 'P-256', x: publicJwk.x!, y: y.toString('base64url') };
}

async function registerAsAdmin(gw: TestGateway, jwk: unknown) {
  const admin = await gw.login('admin');
  return gw.call('PUT', '/api/principals/svc/sender-key', { headers: bearer(admin), body: { jwk } });
}

test('attack: registering an RSA sender key with e = 1 (every signature verifies) -> 400', async (t) => {
  const gw = await startGateway(t);
  const reply = await registerAsAdmin(gw, rsaJwk(2048, [1]));
  t.is(reply.status, 400);
  t.is(reply.body.code, 'BAD_REQUEST');
});

test('attack: RSA sender keys with another exponent or an oversized modulus -> 400', async (t) => {
  const gw = await startGateway(t);
  for (const jwk of [
    rsaJwk(2048, [3]),
    rsaJwk(2048, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    rsaJwk(8192, [1, 0, 1]),
    rsaJwk(4104, [1, 0, 1]),
  ]) {
    const reply = await registerAsAdmin(gw, jwk);
    t.is(reply.status, 400);
    t.is(reply.body.code, 'BAD_REQUEST');
  }
  t.is(
    (await registerAsAdmin(gw, (await makeSigner('RS256', { modulusLength: 4096 })).publicJwk)).status,
    200,
    '4096 bits with e = 65537 is fine',
  );
});

test('an EC sender key off the curve is 400, for registration and for a scoped session', async (t) => {
  const gw = await startGateway(t);
  const jwk = await offCurveJwk();
  t.is((await registerAsAdmin(gw, jwk)).status, 400);
  const alice = await gw.login('alice');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag;
  const scoped = await gw.call('POST', '/api/session/scoped', { headers: bearer(alice), body: { objects: [ttag], senderKey: jwk } });
  t.is(scoped.status, 400);
  t.is(scoped.body.code, 'BAD_REQUEST');
});

test('attack: a proof carrying an RSA key with e = 1 or a huge exponent is refused as PROOF_MALFORMED before any signature work', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const alice = await gw.login('alice');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag;
  const scoped = await gw.call('POST', '/api/session/scoped', {
    headers: bearer(alice),
    body: { objects: [ttag], senderKey: signer.publicJwk },
  });
  const session = scoped.body.sessionId as string;
  const rsa = await makeSigner('RS256');
  for (const jwk of [rsaJwk(2048, [1]), { ...rsa.publicJwk, e: Buffer.alloc(512, 0xff).toString('base64url') }, rsaJwk(8192, [1, 0, 1])]) {
    const proof = buildProof(
      rsa,
      { method: 'GET', htu: `${gw.url}/api/session`, credential: session, body: Buffer.alloc(0) },
      gw.clock.now(),
      {
        header: { jwk },
      },
    );
    const reply = await gw.call('GET', '/api/session', { headers: { ...bearer(session), DPoP: proof } });
    t.is(reply.status, 400);
    t.is(reply.body.code, 'PROOF_MALFORMED');
  }
  const offCurve = buildProof(
    signer,
    { method: 'GET', htu: `${gw.url}/api/session`, credential: session, body: Buffer.alloc(0) },
    gw.clock.now(),
    {
      header: { jwk: await offCurveJwk() },
    },
  );
  const reply = await gw.call('GET', '/api/session', { headers: { ...bearer(session), DPoP: offCurve } });
  t.is(reply.body.code, 'PROOF_MALFORMED');
});
