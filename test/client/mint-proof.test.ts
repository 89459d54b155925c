import { createHash, createPublicKey, verify } from 'node:crypto';
import test from 'ava';
import { calculateJwkThumbprint } from 'jose';
import { mintProof, proofHtu } from '../../src/client/mint-proof.js';
import { ProofKey } from '../../src/client/proof-key.js';
import { verifyProof } from '../../src/domain/proof/verify-proof.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0, 750);
const SESSION = 'kg_c2Vzc2lvbi1pZC1mb3ItdGhlLWNsaWVudC10ZXN0';
const BODY = new TextEncoder().encode('{"ttag":"AAAAAAAAAAAAAAAAAAAAAA==","plaintext":"aGVsbG8="}');

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('base64url');

function decode(proof: string) {
  const [header, payload, signature] = proof.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString()),
    claims: JSON.parse(Buffer.from(payload!, 'base64url').toString()),
    signingInput: `${header}.${payload}`,
    signature: Buffer.from(signature!, 'base64url'),
    segments: [header!, payload!, signature!],
  };
}

test('a proof is a compact JWS whose header is typ dpop+jwt, alg ES256 and the public jwk alone', async (t) => {
  const key = await ProofKey.generate();
  const proof = decode(
    await mintProof(key, { method: 'POST', url: 'http://localhost:8080/api/crypto/encrypt', credential: SESSION, body: BODY }, NOW),
  );
  for (const segment of proof.segments) t.regex(segment, /^[A-Za-z0-9_-]+$/, 'strict base64url, no padding');
  t.deepEqual(proof.header, { typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk });
  t.deepEqual(Object.keys(proof.header.jwk).sort(), ['crv', 'kty', 'x', 'y'], 'no private member');
});

test('the claims bind the proof to the request: htm, htu, iat, ath, bth, and a fresh jti', async (t) => {
  const key = await ProofKey.generate();
  const request = { method: 'post', url: 'http://LocalHost:8080/api/crypto/encrypt?x=1#frag', credential: SESSION, body: BODY };
  const { claims } = decode(await mintProof(key, request, NOW));
  t.deepEqual(Object.keys(claims).sort(), ['ath', 'bth', 'htm', 'htu', 'iat', 'jti']);
  t.is(claims.htm, 'POST');
  t.is(claims.htu, 'http://localhost:8080/api/crypto/encrypt', 'no query or fragment');
  t.is(claims.iat, Math.floor(NOW / 1000));
  t.is(claims.ath, sha256(SESSION));
  t.is(claims.bth, sha256(BODY));
  t.regex(claims.jti, /^[A-Za-z0-9_-]{22}$/, '16 random bytes');
  const again = decode(await mintProof(key, request, NOW)).claims;
  t.not(again.jti, claims.jti);
});

test('bth of a request without a body is the SHA-256 of the empty string', async (t) => {
  const key = await ProofKey.generate();
  const { claims } = decode(await mintProof(key, { method: 'GET', url: 'https://gw.example/api/session', credential: SESSION }, NOW));
  t.is(claims.bth, '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU');
  t.is(claims.htm, 'GET');
});

test('the signature is ES256 (64-byte r||s) over the segments as sent, and verifies with the public jwk', async (t) => {
  const key = await ProofKey.generate();
  const proof = decode(await mintProof(key, { method: 'GET', url: 'https://gw.example/api/session', credential: SESSION }, NOW));
  t.is(proof.signature.length, 64);
  const publicKey = createPublicKey({ key: proof.header.jwk, format: 'jwk' });
  const signingInput = Buffer.from(proof.signingInput, 'ascii');
  t.true(verify('sha256', signingInput, { key: publicKey, dsaEncoding: 'ieee-p1363' }, proof.signature));
  const tampered = Buffer.from(proof.signature);
  tampered[10]! ^= 1;
  t.false(verify('sha256', signingInput, { key: publicKey, dsaEncoding: 'ieee-p1363' }, tampered));
});

test('the proof key is non-extractable and its jkt is the RFC 7638 thumbprint of the jwk', async (t) => {
  const key = await ProofKey.generate();
  t.false(key.extractable);
  t.is(key.jkt, await calculateJwkThumbprint(key.publicJwk));
});

test("the gateway's own proof verification accepts a proof the client minted", async (t) => {
  const key = await ProofKey.generate();
  const htu = 'http://127.0.0.1:4000/api/crypto/encrypt';
  const proof = await mintProof(key, { method: 'POST', url: htu, credential: SESSION, body: BODY }, NOW);
  const verified = await verifyProof([proof], { method: 'POST', htu, credential: SESSION, body: BODY, jkt: key.jkt }, NOW);
  t.is(verified.jkt, key.jkt);
  const otherBody = new TextEncoder().encode(`${new TextDecoder().decode(BODY)} `);
  const refused = await t.throwsAsync(
    verifyProof([proof], { method: 'POST', htu, credential: SESSION, body: otherBody, jkt: key.jkt }, NOW),
  );
  t.is((refused as { code?: string }).code, 'PROOF_BINDING_MISMATCH');
});

test('htu keeps scheme, host, port and path as the URL parser spells them, and drops a default port', (t) => {
  t.is(proofHtu('https://GW.example:443/api/keys/abc_-/export?q#f'), 'https://gw.example/api/keys/abc_-/export');
  t.is(proofHtu('http://127.0.0.1:8080/api/session'), 'http://127.0.0.1:8080/api/session');
});
