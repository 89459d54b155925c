import { PROOF_JTI_MAX_LENGTH, PROOF_TYP } from './proof.js';
import { ProofMalformedError } from './proof.errors.js';
import { decodeStrictBase64url } from './strict-base64url.js';

type JsonObject = Readonly<Record<string, unknown>>;

/** A proof that passed the shape checks: its segments as sent and its decoded members. */
export interface ParsedProof {
  /** The compact serialisation exactly as sent (the signature is checked over its segments). */
  readonly compact: string;
  readonly header: JsonObject;
  readonly jwk: JsonObject;
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
 * The shape check, first of the fixed order (api-surface.md "Proof verification: the fine points";
 * RFC 9449 §4.3 steps 1-5): exactly one `DPoP` header value; three segments of strict base64url;
 * header and payload JSON objects; `typ` exactly `dpop+jwt`; `iat` a number; `jti` a string of
 * 1..256 characters; `htm` and `htu` strings; `jwk` an object. Anything else is PROOF_MALFORMED.
 * `alg` and the key itself are judged by the next checks.
 */
export function parseProof(proofHeaderValues: readonly string[]): ParsedProof {
  if (proofHeaderValues.length !== 1) throw new ProofMalformedError('exactly one DPoP header is required');
  const compact = proofHeaderValues[0] ?? '';
  const segments = compact.split('.');
  if (segments.length !== 3) throw new ProofMalformedError('not three segments');
  const [headerBytes, payloadBytes, signature] = segments.map(decodeSegment) as [Buffer, Buffer, Buffer];
  const header = decodeJsonObject(headerBytes, 'header');
  const payload = decodeJsonObject(payloadBytes, 'payload');
  if (header.typ !== PROOF_TYP) throw new ProofMalformedError(`typ must be ${PROOF_TYP}`);
  const claims = checkClaims(payload);
  const jwk = header.jwk;
  if (!isJsonObject(jwk)) throw new ProofMalformedError('jwk must be present and an object');
  return { compact, header, jwk, signature, claims };
}

function checkClaims(payload: JsonObject): ProofClaims {
  const { iat, jti, htm, htu } = payload;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new ProofMalformedError('iat must be a number');
  if (typeof jti !== 'string' || jti.length === 0 || [...jti].length > PROOF_JTI_MAX_LENGTH) {
    throw new ProofMalformedError(`jti must be a string of 1..${PROOF_JTI_MAX_LENGTH} characters`);
  }
  if (typeof htm !== 'string') throw new ProofMalformedError('htm must be a string');
  if (typeof htu !== 'string') throw new ProofMalformedError('htu must be a string');
  return { ...payload, iat, jti, htm, htu };
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
