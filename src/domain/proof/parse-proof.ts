import { ProofMalformedError } from './proof.errors.js';
import { PROOF_JTI_MAX_LENGTH, PROOF_TYP } from './proof.js';
import { decodeStrictBase64url } from './strict-base64url.js';

type JsonObject = Readonly<Record<string, unknown>>;

/** A header segment already decoded and found well-shaped: its members and its `jwk`. */
export interface KnownHeader {
  readonly header: JsonObject;
  readonly jwk: JsonObject;
}

/** A proof that passed the shape checks: its segments as sent and its decoded members. */
export interface ParsedProof extends KnownHeader {
  /** The compact serialisation exactly as sent (the signature is checked over its segments). */
  readonly compact: string;
  /** The header segment exactly as sent (the key cache's name for the header it decodes to). */
  readonly headerSegment: string;
  readonly signature: Uint8Array;
  readonly claims: ProofClaims;
}

/** Payload claims whose type the shape check guarantees; `ath` and `bth` are checked as bindings. */
export interface ProofClaims extends JsonObject {
  readonly htm: string;
  readonly htu: string;
  readonly iat: number;
  readonly jti: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The shape check, first of the fixed order (docs/spec.md §5.3 step 2;
 * RFC 9449 §4.3 steps 1-5): exactly one `DPoP` header value; three segments of strict base64url;
 * header and payload JSON objects; `typ` exactly `dpop+jwt`; `iat` a number; `jti` a string of
 * 1..256 characters; `htm` and `htu` strings; `jwk` an object. Anything else is PROOF_MALFORMED.
 * `alg` and the key itself are judged by the next checks.
 *
 * `known` is what an earlier proof's identical header segment decoded to, after it passed every check
 * of the header (a key-cache hit): the header is then not decoded again. Decoding is a pure function
 * of the segment, so every check still reaches the verdict it reached then, in the same order.
 */
export function parseProof(proofHeaderValues: readonly string[], known?: KnownHeader): ParsedProof {
  if (proofHeaderValues.length !== 1) throw new ProofMalformedError('exactly one DPoP header is required');
  const compact = proofHeaderValues[0] ?? '';
  const segments = compact.split('.');
  if (segments.length !== 3) throw new ProofMalformedError('not three segments');
  const [headerSegment, payloadSegment, signatureSegment] = segments as [string, string, string];
  const headerBytes = known === undefined ? decodeSegment(headerSegment) : undefined;
  const payloadBytes = decodeSegment(payloadSegment);
  const signature = decodeSegment(signatureSegment);
  const header = known?.header ?? decodeJsonObject(headerBytes!, 'header');
  const payload = decodeJsonObject(payloadBytes, 'payload');
  if (header.typ !== PROOF_TYP) throw new ProofMalformedError(`typ must be ${PROOF_TYP}`);
  const claims = checkClaims(payload);
  const jwk = header.jwk;
  if (!isJsonObject(jwk)) throw new ProofMalformedError('jwk must be present and an object');
  return { compact, headerSegment, header, jwk, signature, claims };
}

/** The header segment of a lone proof value (what the key cache is asked under), else undefined. */
export function headerSegmentOf(proofHeaderValues: readonly string[]): string | undefined {
  if (proofHeaderValues.length !== 1) return undefined;
  const compact = proofHeaderValues[0]!;
  const dot = compact.indexOf('.');
  return dot < 0 ? undefined : compact.slice(0, dot);
}

function checkClaims(payload: JsonObject): ProofClaims {
  const { iat, jti, htm, htu } = payload;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new ProofMalformedError('iat must be a number');
  // A string has at most as many code points as UTF-16 units: only a long one is counted.
  if (typeof jti !== 'string' || jti.length === 0 || (jti.length > PROOF_JTI_MAX_LENGTH && [...jti].length > PROOF_JTI_MAX_LENGTH)) {
    throw new ProofMalformedError(`jti must be a string of 1..${PROOF_JTI_MAX_LENGTH} characters`);
  }
  if (typeof htm !== 'string') throw new ProofMalformedError('htm must be a string');
  if (typeof htu !== 'string') throw new ProofMalformedError('htu must be a string');
  // The members just checked are the payload's own: it is the claims as it is, not a copy of it.
  return payload as ProofClaims;
}

function decodeSegment(segment: string): Buffer {
  const bytes = decodeStrictBase64url(segment);
  if (bytes === undefined) throw new ProofMalformedError('a segment is not strict base64url');
  return bytes;
}

function decodeJsonObject(bytes: Uint8Array, name: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (cause) {
    throw new ProofMalformedError(`${name} is not JSON`, cause);
  }
  if (!isJsonObject(value)) throw new ProofMalformedError(`${name} is not a JSON object`);
  return value;
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
