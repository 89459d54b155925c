import test from 'ava';
import fc from 'fast-check';
import { KeygateError } from '../../../src/domain/errors/keygate-error.js';
import type { ProofRequest } from '../../../src/domain/proof/proof.js';
import { verifyProof } from '../../../src/domain/proof/verify-proof.js';
import { buildProof, encodeJson, makeSigner, NOW, type ProofSigner, REQUEST, sha256Base64url } from '../../_support/proof-builder.js';

/** Codes `verifyProof` may answer; PROOF_MISSING and the replay codes belong to its caller. */
const VERIFY_CODES = new Set([
  'PROOF_MALFORMED',
  'PROOF_ALG_NOT_ALLOWED',
  'PROOF_KEY_MISMATCH',
  'PROOF_SIGNATURE_REJECTED',
  'PROOF_BINDING_MISMATCH',
  'PROOF_CLOCK_SKEW',
]);
const SEGMENT_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', '=', '+', '/', '.', ' ', '~', '%', 'é', '\n'];
const RUNS = { tamper: 500, resign: 150, valid: 150 };

type Segments = [string, string, string];
type Mutation =
  | { kind: 'header' | 'claim' | 'jwk'; name: string; value: fc.JsonValue | undefined }
  | { kind: 'signature-byte'; index: number; mask: number }
  | { kind: 'replace-char'; index: number; char: string }
  | { kind: 'replace-segment-end'; segment: number; fromEnd: number; char: string }
  | { kind: 'insert-char'; index: number; char: string }
  | { kind: 'delete-char'; index: number };

const member = (kind: 'header' | 'claim' | 'jwk', names: string[]) =>
  fc.record({
    kind: fc.constant(kind),
    name: fc.constantFrom(...names),
    value: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
  });

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  member('header', ['typ', 'alg', 'jwk', 'kid', 'crit', 'b64', 'x5c']),
  member('claim', ['htm', 'htu', 'iat', 'jti', 'ath', 'bth', 'nonce', 'exp']),
  member('jwk', ['kty', 'crv', 'x', 'y', 'n', 'e', 'd', 'alg', 'use']),
  fc.record({ kind: fc.constant('signature-byte' as const), index: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('replace-char' as const), index: fc.nat(), char: fc.constantFrom(...SEGMENT_CHARS) }),
  fc.record({
    kind: fc.constant('replace-segment-end' as const),
    segment: fc.integer({ min: 0, max: 2 }),
    fromEnd: fc.integer({ min: 1, max: 3 }),
    char: fc.constantFrom(...SEGMENT_CHARS),
  }),
  fc.record({ kind: fc.constant('insert-char' as const), index: fc.nat(), char: fc.constantFrom(...SEGMENT_CHARS) }),
  fc.record({ kind: fc.constant('delete-char' as const), index: fc.nat() }),
);

/** Applies one mutation to a valid proof without signing again (a tamperer holds no private key). */
function tamper(compact: string, m: Mutation): string {
  const [header, payload, signature] = compact.split('.') as Segments;
  switch (m.kind) {
    case 'header':
      return [encodeJson(setMember(decode(header), m.name, m.value)), payload, signature].join('.');
    case 'jwk': {
      const decoded = decode(header);
      return [encodeJson({ ...decoded, jwk: setMember(decoded.jwk as Record<string, unknown>, m.name, m.value) }), payload, signature].join(
        '.',
      );
    }
    case 'claim':
      return [header, encodeJson(setMember(decode(payload), m.name, m.value)), signature].join('.');
    case 'signature-byte': {
      const bytes = Buffer.from(signature, 'base64url');
      bytes[m.index % bytes.length]! ^= m.mask;
      return [header, payload, bytes.toString('base64url')].join('.');
    }
    case 'replace-char': {
      const i = m.index % compact.length;
      return compact.slice(0, i) + m.char + compact.slice(i + 1);
    }
    case 'replace-segment-end': {
      const segments: string[] = [header, payload, signature];
      const target = segments[m.segment]!;
      const i = Math.max(0, target.length - m.fromEnd);
      segments[m.segment] = target.slice(0, i) + m.char + target.slice(i + 1);
      return segments.join('.');
    }
    case 'insert-char': {
      const i = m.index % (compact.length + 1);
      return compact.slice(0, i) + m.char + compact.slice(i);
    }
    case 'delete-char': {
      const i = m.index % compact.length;
      return compact.slice(0, i) + compact.slice(i + 1);
    }
  }
}

function decode(segment: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function setMember(object: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  const copy = { ...object };
  if (value === undefined) delete copy[name];
  else copy[name] = value;
  return copy;
}

async function refusal(proof: string, expected: ProofRequest & { jkt: string }): Promise<string | undefined> {
  try {
    await verifyProof([proof], expected, NOW);
    return undefined;
  } catch (error) {
    return error instanceof KeygateError && VERIFY_CODES.has(error.code) ? error.code : `not a proof refusal: ${String(error)}`;
  }
}

/** Seconds away from the clock beyond the 30 s tolerance, either side. */
const outsideTolerance = fc.oneof(fc.double({ min: 30.001, max: 1e7, noNaN: true }), fc.double({ min: -1e7, max: -30.001, noNaN: true }));

const signers: ProofSigner[] = [await makeSigner('ES256'), await makeSigner('RS256')];

for (const signer of signers) {
  const expected = { ...REQUEST, jkt: signer.jkt };
  const valid = buildProof(signer);

  test(`${signer.alg}: no tampering with a header field, claim, jwk member, signature byte or segment character is accepted`, async (t) => {
    t.is(await refusal(valid, expected), undefined, 'the untouched proof verifies');
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const tampered = tamper(valid, m);
        fc.pre(tampered !== valid);
        const code = await refusal(tampered, expected);
        return code !== undefined && VERIFY_CODES.has(code);
      }),
      { numRuns: RUNS.tamper },
    );
    t.pass();
  });

  test(`${signer.alg}: a proof the key holder signs over the wrong request or time is refused with the claim's code`, async (t) => {
    const wrong = fc.oneof(
      fc.record({ claim: fc.constant('htm'), value: fc.string().filter((m) => m !== REQUEST.method) }),
      fc.record({ claim: fc.constant('htu'), value: fc.stringMatching(/^[^?#]+$/).map((suffix) => `${REQUEST.htu}${suffix}`) }),
      fc.record({
        claim: fc.constant('ath'),
        value: fc
          .string()
          .filter((s) => s !== REQUEST.credential)
          .map(sha256Base64url),
      }),
      fc.record({
        claim: fc.constant('bth'),
        value: fc
          .uint8Array()
          .filter((b) => !Buffer.from(b).equals(REQUEST.body!))
          .map(sha256Base64url),
      }),
      fc.record({ claim: fc.constant('iat'), value: outsideTolerance.map((seconds) => NOW / 1000 + seconds) }),
    );
    await fc.assert(
      fc.asyncProperty(wrong, async ({ claim, value }) => {
        const code = await refusal(buildProof(signer, REQUEST, NOW, { claims: { [claim]: value } }), expected);
        return code === (claim === 'iat' ? 'PROOF_CLOCK_SKEW' : 'PROOF_BINDING_MISMATCH');
      }),
      { numRuns: RUNS.resign },
    );
    t.pass();
  });

  test(`${signer.alg}: a proof the key holder signs for any request, within 30 s, is accepted`, async (t) => {
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
      path: fc.array(fc.stringMatching(/^[A-Za-z0-9._~%-]{1,12}$/), { maxLength: 4 }).map((parts) => `/api/${parts.join('/')}`),
      query: fc.option(fc.stringMatching(/^[^#]*$/), { nil: undefined }),
      credential: fc.string({ minLength: 1 }),
      body: fc.option(fc.uint8Array({ maxLength: 2048 }), { nil: undefined }),
      skew: fc.integer({ min: -30_000, max: 30_000 }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, query, credential, body, skew }) => {
        const facts: ProofRequest = { method, htu: `https://gateway.example${path}`, credential, body };
        const claimed = query === undefined ? facts : { ...facts, htu: `${facts.htu}?${query}` };
        const proof = buildProof(signer, claimed, NOW + skew);
        const verified = await verifyProof([proof], { ...facts, jkt: signer.jkt }, NOW);
        return verified.jkt === signer.jkt;
      }),
      { numRuns: RUNS.valid },
    );
    t.pass();
  });
}
