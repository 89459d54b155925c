import { BadRequestError } from '../model/key-server-errors.js';

/** The largest claims set, as UTF-8 JSON, and the largest extra header (docs/spec.md §4.25 item 5). */
export const JWT_CLAIMS_MAX_BYTES = 65_536;
export const JWT_HEADER_MAX_BYTES = 8192;
/** How far in the future `iat` may be, in seconds. */
const IAT_LEEWAY_SECONDS = 60;

/**
 * Header parameters the caller may not set (docs/spec.md §4.25 item 5): the key server names the
 * algorithm and key, and no key, certificate, critical extension or encryption is taken from a caller.
 */
const RESERVED_HEADER = new Set(['alg', 'kid', 'jku', 'jwk', 'x5u', 'x5c', 'x5t', 'x5t#S256', 'crit', 'b64', 'zip', 'enc']);

/**
 * The claims a JWT is signed with (docs/spec.md §4.25 item 5): `iat` now unless given, `exp` `iat` +
 * `maxLifetime` unless given; both integers, `iat` at most 60 s ahead, `exp` after now and at most
 * `maxLifetime` after `iat`. `now` is the engine's clock in seconds. BAD_REQUEST names `claims.<name>`.
 */
export function jwtClaimsOf(claims: Readonly<Record<string, unknown>>, now: number, maxLifetime: number): Record<string, unknown> {
  if (Buffer.byteLength(JSON.stringify(claims)) > JWT_CLAIMS_MAX_BYTES)
    throw new BadRequestError(`claims: at most ${JWT_CLAIMS_MAX_BYTES} bytes as JSON`);
  const iat = numericDate(claims.iat, 'iat') ?? now;
  if (iat > now + IAT_LEEWAY_SECONDS) throw new BadRequestError(`claims.iat: more than ${IAT_LEEWAY_SECONDS} s in the future`);
  const exp = numericDate(claims.exp, 'exp') ?? iat + maxLifetime;
  if (exp <= now) throw new BadRequestError('claims.exp: not after now');
  if (exp - iat > maxLifetime) throw new BadRequestError(`claims.exp: more than the key's jwtMaxLifetime (${maxLifetime} s) after iat`);
  return { ...claims, iat, exp };
}

function numericDate(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new BadRequestError(`claims.${name}: an integer NumericDate`);
  return value;
}

/**
 * The caller's header parameters (docs/spec.md §4.25 item 5): string values only, none of the
 * reserved names; `typ` defaults to `JWT`. BAD_REQUEST names `header.<name>`.
 */
export function jwtHeaderOf(header: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const given = header ?? {};
  if (Buffer.byteLength(JSON.stringify(given)) > JWT_HEADER_MAX_BYTES)
    throw new BadRequestError(`header: at most ${JWT_HEADER_MAX_BYTES} bytes as JSON`);
  const taken: [string, string][] = [['typ', 'JWT']];
  for (const [name, value] of Object.entries(given)) {
    if (RESERVED_HEADER.has(name)) throw new BadRequestError(`header.${name}: set by the key server or not allowed`);
    if (typeof value !== 'string') throw new BadRequestError(`header.${name}: a string`);
    taken.push([name, value]);
  }
  // Own data properties only (a `__proto__` name stays a name, never the prototype).
  return Object.fromEntries(taken);
}
