import test from 'ava';
import type { ErrorCode } from '../../../src/domain/errors/error-codes.js';
import { KeygateError } from '../../../src/domain/errors/keygate-error.js';
import type { ProofBindingMismatchError } from '../../../src/domain/proof/proof.errors.js';
import type { ProofKeyEntry, ProofRequest } from '../../../src/domain/proof/proof.js';
import { verifyProof } from '../../../src/domain/proof/verify-proof.js';
import { LruProofKeyCache } from '../../../src/use-cases/proof-key-cache.js';
import {
  buildProof,
  encodeJson,
  makeSigner,
  NOW,
  type ProofSigner,
  type ProofSpec,
  REQUEST,
  sha256Base64url,
  signCompact,
  validParts,
} from '../../_support/proof-builder.js';

type Alg = 'ES256' | 'RS256';
type Segments = [string, string, string];

/** Keys every case may draw on: the session's key, another of the same kind, and unfit ones. */
interface Keys {
  readonly signer: ProofSigner;
  readonly other: ProofSigner;
  readonly es256: ProofSigner;
  readonly rs256: ProofSigner;
  readonly rsa1024: ProofSigner;
  readonly p384: ProofSigner;
}

interface Case {
  readonly title: string;
  /** Algorithms the case runs with (default both). */
  readonly algs?: readonly Alg[];
  /** The DPoP header values sent. */
  readonly proof: (keys: Keys) => string | string[];
  readonly request?: Partial<ProofRequest>;
  /** The session's jkt (default the signer's). */
  readonly jkt?: (keys: Keys) => string;
  readonly now?: number;
  /** The refusal code, or `accepted`; for a binding mismatch, the claim named. */
  readonly expect: ErrorCode | 'accepted';
  readonly claim?: 'htm' | 'htu' | 'ath' | 'bth';
}

const pairs = {
  ES256: [await makeSigner('ES256'), await makeSigner('ES256')],
  RS256: [await makeSigner('RS256'), await makeSigner('RS256')],
};
const rsa1024 = await makeSigner('RS256', { modulusLength: 1024 });
const p384 = await makeSigner('ES256', { namedCurve: 'P-384' });
/** A P-256 "point" that is not on the curve, and its RFC 7638 thumbprint. */
const OFF_CURVE_X = Buffer.alloc(32, 1).toString('base64url');
const OFF_CURVE_JKT = sha256Base64url(JSON.stringify({ crv: 'P-256', kty: 'EC', x: OFF_CURVE_X, y: OFF_CURVE_X }));

const proof =
  (spec: ProofSpec = {}, request: ProofRequest = REQUEST) =>
  (k: Keys) =>
    buildProof(k.signer, request, NOW, spec);
const withClaims = (claims: Record<string, unknown>) => proof({ claims });
const withHeader = (header: Record<string, unknown>) => proof({ header });
const withJwk = (change: (jwk: Readonly<Record<string, string>>) => Record<string, unknown>) => (k: Keys) =>
  buildProof(k.signer, REQUEST, NOW, { header: { jwk: change(k.signer.publicJwk) } });
/** Rebuilds the compact form from the segments of a valid proof. */
const resegment = (change: (segments: Segments, k: Keys) => string) => (k: Keys) => change(segments(k), k);
const segments = (k: Keys) => buildProof(k.signer).split('.') as Segments;
const htu = (value: string) => withClaims({ htu: value });
const iatAt = (seconds: number) => withClaims({ iat: NOW / 1000 + seconds });
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

const MALFORMED = 'PROOF_MALFORMED';
const ALG = 'PROOF_ALG_NOT_ALLOWED';
const MISMATCH = 'PROOF_KEY_MISMATCH';
const SIGNATURE = 'PROOF_SIGNATURE_REJECTED';
const BINDING = 'PROOF_BINDING_MISMATCH';
const SKEW = 'PROOF_CLOCK_SKEW';
const OK = 'accepted';

const cases: readonly Case[] = [
  // Accepted: the edges that must not be refused.
  { title: 'accepts a fresh proof', proof: proof(), expect: OK },
  { title: 'accepts iat 30 s ahead of the clock', proof: iatAt(30), expect: OK },
  { title: 'accepts iat 30 s behind the clock', proof: iatAt(-30), expect: OK },
  { title: 'accepts an htu differing only by query and fragment', proof: htu(`${REQUEST.htu}?a=1&b=2#frag`), expect: OK },
  { title: 'accepts an htu differing only by host case', proof: htu('https://GATEWAY.Example/api/crypto/encrypt'), expect: OK },
  { title: 'accepts an htu differing only by scheme case', proof: htu('HTTPS://gateway.example/api/crypto/encrypt'), expect: OK },
  { title: 'accepts an htu naming the default port :443', proof: htu('https://gateway.example:443/api/crypto/encrypt'), expect: OK },
  {
    title: 'accepts a request htu that carries a query the claim lacks',
    proof: proof(),
    request: { htu: `${REQUEST.htu}?x=1` },
    expect: OK,
  },
  {
    title: 'accepts the empty-string hash as bth when there is no body',
    proof: proof({}, { ...REQUEST, body: undefined }),
    request: { body: undefined },
    expect: OK,
  },
  {
    title: 'accepts the empty-string hash as bth for an empty body',
    proof: withClaims({ bth: sha256Base64url('') }),
    request: { body: new Uint8Array(0) },
    expect: OK,
  },
  { title: 'ignores a nonce claim', proof: withClaims({ nonce: 'never-issued' }), expect: OK },
  { title: 'ignores extra public jwk members', proof: withJwk((jwk) => ({ ...jwk, kid: 'k1', use: 'sig', alg: 'ES256' })), expect: OK },
  { title: 'accepts a jti of 256 characters', proof: withClaims({ jti: 'j'.repeat(256) }), expect: OK },

  // PROOF_MALFORMED: shape.
  {
    title: 'refuses two DPoP headers, even two valid proofs',
    proof: (k) => [buildProof(k.signer), buildProof(k.signer)],
    expect: MALFORMED,
  },
  { title: 'refuses an empty DPoP header', proof: () => '', expect: MALFORMED },
  { title: 'refuses two segments', proof: resegment(([h, p]) => `${h}.${p}`), expect: MALFORMED },
  { title: 'refuses four segments', proof: resegment((parts) => `${parts.join('.')}.AAAA`), expect: MALFORMED },
  { title: 'refuses an empty signature segment', proof: resegment(([h, p]) => `${h}.${p}.`), expect: MALFORMED },
  { title: 'refuses padding in a segment', proof: resegment((parts) => `${parts.join('.')}==`), expect: MALFORMED },
  { title: 'refuses + in a segment', proof: resegment(([h, p, s]) => `${h}.${p}.+${s.slice(1)}`), expect: MALFORMED },
  { title: 'refuses / in a segment', proof: resegment(([h, p, s]) => `${h}.${p}.${s.slice(0, 5)}/${s.slice(6)}`), expect: MALFORMED },
  { title: 'refuses a stray character in a segment', proof: resegment(([h, p, s]) => `${h}.${p} .${s}`), expect: MALFORMED },
  {
    title: 'refuses a non-canonical last character (the same bytes spelled another way)',
    proof: resegment(([h, p, s]) => `${h}.${p}.${s.slice(0, -1)}${flipUnusedBits(s.at(-1)!)}`),
    expect: MALFORMED,
  },
  { title: 'refuses a header that is not JSON', proof: proof({ rawHeader: b64url(Buffer.from('{typ:dpop+jwt}')) }), expect: MALFORMED },
  { title: 'refuses a header that is a JSON array', proof: proof({ rawHeader: encodeJson(['dpop+jwt']) }), expect: MALFORMED },
  { title: 'refuses a payload that is JSON null', proof: proof({ rawPayload: encodeJson(null) }), expect: MALFORMED },
  {
    title: 'refuses a payload that is not UTF-8',
    proof: proof({ rawPayload: b64url(Buffer.from([0x7b, 0xff, 0x7d])) }),
    expect: MALFORMED,
  },
  { title: 'refuses a missing typ', proof: withHeader({ typ: undefined }), expect: MALFORMED },
  { title: 'refuses typ JWT', proof: withHeader({ typ: 'JWT' }), expect: MALFORMED },
  { title: 'refuses typ in another case', proof: withHeader({ typ: 'DPoP+JWT' }), expect: MALFORMED },
  { title: 'refuses an iat string', proof: withClaims({ iat: String(NOW / 1000) }), expect: MALFORMED },
  { title: 'refuses a missing iat', proof: withClaims({ iat: undefined }), expect: MALFORMED },
  { title: 'refuses a jti of 257 characters', proof: withClaims({ jti: 'j'.repeat(257) }), expect: MALFORMED },
  { title: 'refuses an empty jti', proof: withClaims({ jti: '' }), expect: MALFORMED },
  { title: 'refuses a numeric jti', proof: withClaims({ jti: 42 }), expect: MALFORMED },
  { title: 'refuses a non-string htm', proof: withClaims({ htm: ['POST'] }), expect: MALFORMED },
  { title: 'refuses a missing htu', proof: withClaims({ htu: undefined }), expect: MALFORMED },
  { title: 'refuses a missing jwk', proof: withHeader({ jwk: undefined }), expect: MALFORMED },
  { title: 'refuses a jwk that is a string', proof: withHeader({ jwk: 'key' }), expect: MALFORMED },
  { title: 'decides the shape before alg', proof: withHeader({ typ: 'JWT', alg: 'none' }), expect: MALFORMED },

  // PROOF_ALG_NOT_ALLOWED, decided before the key is looked at.
  { title: 'refuses a missing alg', proof: withHeader({ alg: undefined }), expect: ALG },
  { title: 'refuses alg none', proof: withHeader({ alg: 'none' }), expect: ALG },
  { title: 'refuses alg HS256', proof: withHeader({ alg: 'HS256' }), expect: ALG },
  { title: 'refuses alg es256 in lower case', proof: withHeader({ alg: 'es256' }), expect: ALG },
  { title: 'refuses alg PS256', proof: withHeader({ alg: 'PS256' }), expect: ALG },
  { title: 'refuses a non-string alg', proof: withHeader({ alg: ['ES256'] }), expect: ALG },
  {
    title: 'decides alg before looking at a private key',
    proof: withHeader({ alg: 'HS256', jwk: { kty: 'oct', k: 'AAAA' } }),
    expect: ALG,
  },

  // Key: PROOF_MALFORMED for an unfit key, PROOF_KEY_MISMATCH for another key.
  { title: 'refuses a jwk with a private member d', proof: withJwk((jwk) => ({ ...jwk, d: 'AAAA' })), expect: MALFORMED },
  { title: 'refuses a jwk with a private member qi', proof: withJwk((jwk) => ({ ...jwk, qi: 'AAAA' })), expect: MALFORMED },
  { title: 'refuses a symmetric jwk, whose k is secret', proof: withJwk(() => ({ kty: 'oct', k: 'c2VjcmV0' })), expect: MALFORMED },
  {
    title: 'refuses an OKP jwk',
    proof: withJwk(() => ({ kty: 'OKP', crv: 'Ed25519', x: b64url(Buffer.alloc(32, 7)) })),
    expect: MALFORMED,
  },
  { title: 'refuses a jwk without kty', proof: withJwk((jwk) => ({ ...jwk, kty: undefined })), expect: MALFORMED },
  {
    title: 'refuses an RSA key of 1024 bits',
    algs: ['RS256'],
    proof: (k) => buildProof(k.rsa1024),
    jkt: (k) => k.rsa1024.jkt,
    expect: MALFORMED,
  },
  { title: 'refuses an EC P-384 key', algs: ['ES256'], proof: (k) => buildProof(k.p384), jkt: (k) => k.p384.jkt, expect: MALFORMED },
  { title: 'refuses kty RSA with ES256', algs: ['RS256'], proof: withHeader({ alg: 'ES256' }), expect: MALFORMED },
  { title: 'refuses kty EC with RS256', algs: ['ES256'], proof: withHeader({ alg: 'RS256' }), expect: MALFORMED },
  {
    title: 'refuses an EC coordinate of 31 bytes',
    algs: ['ES256'],
    proof: withJwk((jwk) => ({ ...jwk, x: b64url(Buffer.alloc(31, 1)) })),
    expect: MALFORMED,
  },
  {
    title: 'refuses an EC point off the curve even when it is the bound key',
    algs: ['ES256'],
    proof: withJwk((jwk) => ({ ...jwk, x: OFF_CURVE_X, y: OFF_CURVE_X })),
    jkt: () => OFF_CURVE_JKT,
    expect: MALFORMED,
  },
  {
    title: 'refuses an RSA modulus with a leading zero byte',
    algs: ['RS256'],
    proof: withJwk((jwk) => ({ ...jwk, n: b64url(Buffer.concat([Buffer.alloc(1), Buffer.from(jwk.n!, 'base64url')])) })),
    expect: MALFORMED,
  },
  { title: 'refuses a key that is not the bound one', proof: proof(), jkt: (k) => k.other.jkt, expect: MISMATCH },
  {
    title: 'decides the key before the signature',
    proof: proof({ mutateSignature: flipFirstByte }),
    jkt: (k) => k.other.jkt,
    expect: MISMATCH,
  },

  // PROOF_SIGNATURE_REJECTED.
  {
    title: 'refuses a signature by another key with the bound jwk claimed',
    proof: (k) => buildProof(k.signer, REQUEST, NOW, { signWith: k.other }),
    expect: SIGNATURE,
  },
  { title: 'refuses a flipped signature byte', proof: proof({ mutateSignature: flipFirstByte }), expect: SIGNATURE },
  { title: 'refuses a DER-encoded ES256 signature', algs: ['ES256'], proof: proof({ dsaEncoding: 'der' }), expect: SIGNATURE },
  { title: 'refuses a truncated signature', proof: proof({ mutateSignature: (s) => s.subarray(0, s.length - 1) }), expect: SIGNATURE },
  {
    title: 'refuses a payload swapped under a valid signature',
    proof: resegment(([h, , s], k) => `${h}.${segments(k)[1]}.${s}`),
    expect: SIGNATURE,
  },
  { title: 'refuses an unknown critical header', proof: withHeader({ crit: ['exp-ext'], 'exp-ext': true }), expect: SIGNATURE },
  {
    title: 'decides the signature before the bindings',
    proof: proof({ claims: { htm: 'GET' }, mutateSignature: flipFirstByte }),
    expect: SIGNATURE,
  },

  // PROOF_BINDING_MISMATCH, naming the claim.
  { title: 'refuses htm in lower case', proof: withClaims({ htm: 'post' }), expect: BINDING, claim: 'htm' },
  { title: 'refuses another method', proof: withClaims({ htm: 'GET' }), expect: BINDING, claim: 'htm' },
  { title: 'refuses an htu differing by a trailing slash', proof: htu(`${REQUEST.htu}/`), expect: BINDING, claim: 'htu' },
  {
    title: 'refuses an htu differing by path case',
    proof: htu('https://gateway.example/api/crypto/Encrypt'),
    expect: BINDING,
    claim: 'htu',
  },
  {
    title: 'refuses an htu with the path percent-encoded',
    proof: htu('https://gateway.example/api/crypto%2Fencrypt'),
    expect: BINDING,
    claim: 'htu',
  },
  { title: 'refuses an htu with a dot segment', proof: htu('https://gateway.example/api/./crypto/encrypt'), expect: BINDING, claim: 'htu' },
  { title: 'refuses an htu with scheme http', proof: htu('http://gateway.example/api/crypto/encrypt'), expect: BINDING, claim: 'htu' },
  {
    title: 'refuses an htu with another port',
    proof: htu('https://gateway.example:8443/api/crypto/encrypt'),
    expect: BINDING,
    claim: 'htu',
  },
  { title: 'refuses an htu with another host', proof: htu('https://evil.example/api/crypto/encrypt'), expect: BINDING, claim: 'htu' },
  { title: 'refuses a relative htu', proof: htu('/api/crypto/encrypt'), expect: BINDING, claim: 'htu' },
  {
    title: 'refuses an ath over a different credential',
    proof: withClaims({ ath: sha256Base64url('another-session-id') }),
    expect: BINDING,
    claim: 'ath',
  },
  { title: 'refuses a missing ath', proof: withClaims({ ath: undefined }), expect: BINDING, claim: 'ath' },
  {
    title: 'refuses an ath with padding',
    proof: withClaims({ ath: `${sha256Base64url(REQUEST.credential)}=` }),
    expect: BINDING,
    claim: 'ath',
  },
  {
    title: 'refuses a bth over a different body',
    proof: withClaims({ bth: sha256Base64url('{"ttag":"other"}') }),
    expect: BINDING,
    claim: 'bth',
  },
  {
    title: 'refuses the empty-string bth for a request with a body',
    proof: withClaims({ bth: sha256Base64url('') }),
    expect: BINDING,
    claim: 'bth',
  },
  { title: 'refuses a missing bth', proof: withClaims({ bth: undefined }), expect: BINDING, claim: 'bth' },
  {
    title: 'names htu first when htu and ath both differ',
    proof: withClaims({ htu: 'https://evil.example/', ath: 'x' }),
    expect: BINDING,
    claim: 'htu',
  },
  { title: 'decides the bindings before iat', proof: withClaims({ htm: 'GET', iat: 0 }), expect: BINDING, claim: 'htm' },

  // PROOF_CLOCK_SKEW.
  { title: 'refuses iat 31 s ahead of the clock', proof: iatAt(31), expect: SKEW },
  { title: 'refuses iat 31 s behind the clock', proof: iatAt(-31), expect: SKEW },
  { title: 'refuses iat 30.001 s ahead of the clock', proof: iatAt(30.001), expect: SKEW },
  { title: 'refuses iat in milliseconds', proof: withClaims({ iat: NOW }), expect: SKEW },
  { title: 'refuses iat 0', proof: withClaims({ iat: 0 }), expect: SKEW },
];

function flipFirstByte(signature: Buffer): Buffer {
  const copy = Buffer.from(signature);
  copy[0]! ^= 0x01;
  return copy;
}

/** A last character with the same two used bits and other unused bits (64- and 256-byte signatures use 2). */
function flipUnusedBits(char: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return alphabet[alphabet.indexOf(char) ^ 0b0001]!;
}

for (const c of cases) {
  for (const alg of c.algs ?? (['ES256', 'RS256'] as const)) {
    test(`${alg}: ${c.title}`, async (t) => {
      const [signer, other] = pairs[alg] as [ProofSigner, ProofSigner];
      const keys: Keys = { signer, other, es256: pairs.ES256[0]!, rs256: pairs.RS256[0]!, rsa1024, p384 };
      const sent = c.proof(keys);
      const expected = { ...REQUEST, ...c.request, jkt: c.jkt?.(keys) ?? signer.jkt };
      const verifying = verifyProof(Array.isArray(sent) ? sent : [sent], expected, c.now ?? NOW);
      if (c.expect === 'accepted') {
        const verified = await verifying;
        t.is(verified.jkt, signer.jkt);
        return;
      }
      const error = await t.throwsAsync(verifying, { instanceOf: KeygateError });
      t.is(error?.code, c.expect);
      if (c.claim) t.is((error as ProofBindingMismatchError).claim, c.claim);
    });
  }
}

test('a verified proof says what the replay cache must record, until iat + 30 s', async (t) => {
  const signer = pairs.ES256[0]!;
  const parts = validParts(signer);
  const sent = signCompact(`${encodeJson(parts.header)}.${encodeJson({ ...parts.claims, iat: NOW / 1000 - 10 })}`, signer);
  const verified = await verifyProof([sent], { ...REQUEST, jkt: signer.jkt }, NOW);
  t.deepEqual(verified, { jkt: signer.jkt, jti: parts.claims.jti as string, iat: NOW / 1000 - 10, expiresAt: NOW - 10_000 + 30_000 + 1 });
});

test('a key off the curve is refused before any import, with no proof text in the detail', async (t) => {
  // Issue 12 §5: the point check runs with the key's shape, so no key import (and no import failure
  // to keep as a cause) happens for it any more.
  const signer = pairs.ES256[0]!;
  const sent = buildProof(signer, REQUEST, NOW, { header: { jwk: { ...signer.publicJwk, x: OFF_CURVE_X, y: OFF_CURVE_X } } });
  const error = await t.throwsAsync(verifyProof([sent], { ...REQUEST, jkt: OFF_CURVE_JKT }, NOW), { instanceOf: KeygateError });
  t.is(error?.code, 'PROOF_MALFORMED');
  t.regex(error!.message, /not on P-256/);
  for (const segment of sent.split('.')) t.false(error!.message.includes(segment));
  t.false(JSON.stringify(error).includes(sent.split('.')[2]!));
});

test('a rejected signature says so without echoing any part of the proof', async (t) => {
  const signer = pairs.RS256[0]!;
  const sent = buildProof(signer, REQUEST, NOW, { mutateSignature: flipFirstByte });
  const error = await t.throwsAsync(verifyProof([sent], { ...REQUEST, jkt: signer.jkt }, NOW), { instanceOf: KeygateError });
  t.is(error?.code, 'PROOF_SIGNATURE_REJECTED');
  for (const segment of sent.split('.')) t.false(error!.message.includes(segment));
  t.false(JSON.stringify(error).includes(sent.split('.')[2]!));
});

test('imports a bound key once, reuses it by the exact header segment, and never caches a key that did not match', async (t) => {
  const signer = pairs.ES256[0]!;
  const other = pairs.ES256[1]!;
  const stored = new Map<string, ProofKeyEntry>();
  const gets: string[] = [];
  const keyCache = {
    get: (segment: string) => (gets.push(segment), stored.get(segment)),
    set: (segment: string, entry: ProofKeyEntry) => void stored.set(segment, entry),
  };
  const expected = { ...REQUEST, jkt: signer.jkt };
  const first = buildProof(signer);
  const header = first.split('.')[0]!;
  await verifyProof([first], expected, NOW, { keyCache });
  const firstEntry = stored.get(header);
  t.is(firstEntry?.thumbprint, signer.jkt);
  await verifyProof([buildProof(signer)], expected, NOW, { keyCache });
  t.is(stored.get(header), firstEntry, 'the second proof of the same key reused the entry');
  const foreign = buildProof(other);
  await t.throwsAsync(verifyProof([foreign], expected, NOW, { keyCache }), { code: 'PROOF_KEY_MISMATCH' });
  t.deepEqual([...stored.keys()], [header]);
  t.deepEqual(gets, [header, header, foreign.split('.')[0]!]);
});

test('a cached header still meets every later check: mismatch for another session, a bad signature, a malformed payload', async (t) => {
  const signer = pairs.ES256[0]!;
  const keyCache = new LruProofKeyCache();
  const expected = { ...REQUEST, jkt: signer.jkt };
  await verifyProof([buildProof(signer)], expected, NOW, { keyCache });
  t.is(keyCache.size, 1);
  const again = buildProof(signer);
  await t.throwsAsync(verifyProof([again], { ...expected, jkt: pairs.ES256[1]!.jkt }, NOW, { keyCache }), { code: 'PROOF_KEY_MISMATCH' });
  const forged = buildProof(signer, REQUEST, NOW, { mutateSignature: flipFirstByte });
  await t.throwsAsync(verifyProof([forged], expected, NOW, { keyCache }), { code: 'PROOF_SIGNATURE_REJECTED' });
  const [header, , signature] = again.split('.');
  await t.throwsAsync(verifyProof([`${header}.e30=.${signature}`], expected, NOW, { keyCache }), { code: 'PROOF_MALFORMED' });
  await t.throwsAsync(verifyProof([`${header}.bm90IGpzb24.${signature}`], expected, NOW, { keyCache }), { code: 'PROOF_MALFORMED' });
  await t.throwsAsync(verifyProof([`${header}.${again.split('.')[1]}`], expected, NOW, { keyCache }), { code: 'PROOF_MALFORMED' });
});
