import { KEY_TYPES, SIGNING_ALGS } from '../../wire/key-type.js';

/** A record's `kid` at most (docs/spec.md §9.1): an RFC 7638 thumbprint is 43 characters; a bound, not a guess at its length. */
export const AUDIT_KID_MAX = 128;

const KID = new RegExp(`^[A-Za-z0-9_-]{1,${AUDIT_KID_MAX}}$`);
const TYPES: ReadonlySet<string> = new Set(KEY_TYPES);
const ALGS: ReadonlySet<string> = new Set(SIGNING_ALGS);

/** The signing fields of a record (docs/spec.md §4.25 item 8, §9.1), as an operation names them. */
export interface AuditSigningFields {
  readonly keyType?: string;
  readonly alg?: string;
  readonly kid?: string;
}

/**
 * The fields a record may carry of `about`: `keyType` one of KEY_TYPES, `alg` one of SIGNING_ALGS, `kid`
 * base64url of at most AUDIT_KID_MAX characters. A value outside its rule (a caller's `kid` on a
 * verify that named no real one, text that is no algorithm) is left out: the record names only what a
 * key server could have meant, never text of the caller's choosing (docs/spec.md §9.1). Answers
 * `about` itself when every given value holds.
 */
export function auditSigningFields(about: AuditSigningFields): AuditSigningFields {
  const { keyType, alg, kid } = about;
  const typeHolds = keyType === undefined || TYPES.has(keyType);
  const algHolds = alg === undefined || ALGS.has(alg);
  // A version's key id (§4.25 item 6): base64url without padding.
  const kidHolds = kid === undefined || KID.test(kid);
  if (typeHolds && algHolds && kidHolds) return about;
  const fields: { keyType?: string; alg?: string; kid?: string } = {};
  if (keyType !== undefined && typeHolds) fields.keyType = keyType;
  if (alg !== undefined && algHolds) fields.alg = alg;
  if (kid !== undefined && kidHolds) fields.kid = kid;
  return fields;
}
