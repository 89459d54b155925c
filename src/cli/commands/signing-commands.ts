import { readFileSync, writeFileSync } from 'node:fs';
import type { SignInput } from '../../client/api-types.js';
import { fromBase64, toBase64 } from '../../client/base64.js';
import type { KeygateSession } from '../../client/keygate-session.js';
import { KEY_TYPES, type KeyType, SIGNING_ALGS, type SigningAlg } from '../../wire/key-type.js';
import { COMMON_USAGE, type CommandContext, defineCommand, gatewayUrl, print, session, text, UsageError, type Values } from './command.js';

/** The usage lines of `keys create`'s signing flags and of `keys public-key|jwks|publish`. */
export const KEY_SIGNING_USAGE = `  create --type ec-p256|ec-p384|ed25519|rsa-2048|rsa-3072|rsa-4096 [--alg A] [--exportable]
         [--jwt-max-lifetime S] [--label TEXT] [--rotation-period P90D]
                                            a signing key (docs/spec.md §4.25): the private key never
                                            leaves the key server (exported only when --exportable)
  public-key TTAG [--version N] [--pem]     a version's public key (the newest by default): its JWK, or PEM
  jwks TTAG                                 the key's JWKS: the public keys of its versions not retired
  publish TTAG [--off]                      serves the key's JWKS without a session at /jwks/keys/...
                                            (owner only); --off withdraws it`;

/** The flags the signing parts of `keys` add. */
export const KEY_SIGNING_OPTIONS = {
  type: { type: 'string' },
  alg: { type: 'string' },
  exportable: { type: 'boolean' },
  'jwt-max-lifetime': { type: 'string' },
  pem: { type: 'boolean', default: false },
  off: { type: 'boolean', default: false },
} as const;

/** `keys create`'s signing fields, checked here so that a typo is a usage error, not a refusal. */
export function signingKeyFields(values: Values): { type?: KeyType; alg?: SigningAlg; exportable?: boolean; jwtMaxLifetime?: number } {
  const type = text(values, 'type');
  if (type !== undefined && !(KEY_TYPES as readonly string[]).includes(type))
    throw new UsageError(`keys create: --type is one of ${KEY_TYPES.join(', ')}`);
  const lifetime = text(values, 'jwt-max-lifetime');
  if (lifetime !== undefined && !/^[1-9][0-9]{0,9}$/.test(lifetime))
    throw new UsageError('keys create: --jwt-max-lifetime is a whole number of seconds');
  const alg = text(values, 'alg');
  return {
    ...(type === undefined ? {} : { type: type as KeyType }),
    ...(alg === undefined ? {} : { alg: algOf(values, 'keys create') }),
    ...(values.exportable === undefined ? {} : { exportable: values.exportable === true }),
    ...(lifetime === undefined ? {} : { jwtMaxLifetime: Number(lifetime) }),
  };
}

/** `keys public-key|jwks|publish TTAG` (docs/spec.md §4.25 items 6, 7). */
export async function signingKeySub(
  ctx: CommandContext,
  values: Values,
  keys: KeygateSession,
  sub: 'public-key' | 'jwks' | 'publish',
  ttag: string,
  version: number | undefined,
): Promise<void> {
  if (sub === 'jwks') {
    const jwks = await keys.jwks(ttag);
    return ctx.out(`${JSON.stringify(jwks, null, 2)}\n`);
  }
  if (sub === 'public-key') {
    const key = await keys.publicKey(ttag, version);
    return print(ctx, values.json, key, () => (values.pem ? key.pem : `${JSON.stringify(key.jwk, null, 2)}\n`));
  }
  const key = await keys.setPublished(ttag, values.off !== true);
  const url = `${gatewayUrl(values, ctx.env).replace(/\/$/, '')}/jwks/keys/${encodeURIComponent(key.ttag)}.json`;
  return print(ctx, values.json, key, () => (key.published ? `published at ${url}\n` : `not published\n`));
}

const SIGN_USAGE = `Usage: keygate sign TTAG --alg A (--in FILE | --digest-hex HEX) [--out FILE]
  Signs with the key's newest version in the key server (right sign; docs/spec.md §4.25 item 3).
  --alg A             ES256, ES384, EdDSA, RS256, RS384, RS512, PS256, PS384 or PS512 (one the key's type fits)
  --in FILE           the message (- for stdin), hashed by the algorithm; at most 64 KiB
  --digest-hex HEX    the hash already taken, in hex (ECDSA and RSA only)
  --out FILE          writes the signature's bytes there; else its standard base64 is printed
  ECDSA signatures are JOSE's raw r || s (64 bytes for ES256), as any JOSE library takes them.
${COMMON_USAGE}
`;

const VERIFY_USAGE = `Usage: keygate verify TTAG --alg A (--in FILE | --digest-hex HEX) (--signature FILE | --signature-b64 S)
                      [--version N | --kid KID]
  Whether the signature is the message's (right read; docs/spec.md §4.25 item 4): under the version or kid
  given, else under any version not retired. Prints "valid" (and the version) and exits 0, or prints
  "invalid" and exits 1.
${COMMON_USAGE}
`;

const SIGN_JWT_USAGE = `Usage: keygate sign-jwt TTAG --claims JSON [--header JSON]
  A JWT signed in the key server under the key's alg and newest version (right sign; docs/spec.md §4.25
  item 5); iat defaults to now, exp to iat + the key's jwtMaxLifetime. Prints the compact JWS.
${COMMON_USAGE}
`;

const MESSAGE_OPTIONS = {
  alg: { type: 'string' },
  in: { type: 'string' },
  'digest-hex': { type: 'string' },
} as const;

/** `keygate sign`. */
export const signCommand = defineCommand(
  {
    name: 'sign',
    summary: 'sign a file (or a digest) with a signing key',
    usage: SIGN_USAGE,
    options: { ...MESSAGE_OPTIONS, out: { type: 'string' } },
  },
  async ({ values, positionals }, ctx) => {
    const ttag = onlyTtag(positionals, 'sign');
    const input = signInput(values, 'sign');
    const signed = await session(values, ctx.env).sign(ttag, input);
    const out = text(values, 'out');
    if (out !== undefined) writeFileSync(out, signed.signature);
    const shown = { signature: toBase64(signed.signature), alg: signed.alg, version: signed.version, kid: signed.kid };
    print(ctx, values.json, out === undefined ? shown : { ...shown, file: out }, () =>
      out === undefined ? `${shown.signature}\n` : `wrote the ${signed.alg} signature of version ${signed.version} to ${out}\n`,
    );
  },
);

/** `keygate verify`: exit 0 when valid, 1 when not. */
export const verifyCommand = defineCommand(
  {
    name: 'verify',
    summary: 'verify a signature made by a signing key',
    usage: VERIFY_USAGE,
    options: {
      ...MESSAGE_OPTIONS,
      signature: { type: 'string' },
      'signature-b64': { type: 'string' },
      version: { type: 'string' },
      kid: { type: 'string' },
    },
  },
  async ({ values, positionals }, ctx) => {
    const ttag = onlyTtag(positionals, 'verify');
    const input = signInput(values, 'verify');
    const signature = signatureOf(values);
    const version = text(values, 'version');
    if (version !== undefined && !/^[1-9][0-9]{0,14}$/.test(version)) throw new UsageError('verify: --version is a whole number from 1');
    const kid = text(values, 'kid');
    const answer = await session(values, ctx.env).verify(ttag, {
      ...input,
      signature,
      ...(version === undefined ? {} : { version: Number(version) }),
      ...(kid === undefined ? {} : { kid }),
    });
    print(ctx, values.json, answer, () => (answer.valid ? `valid (version ${answer.version}, kid ${answer.kid})\n` : 'invalid\n'));
    return answer.valid ? 0 : 1;
  },
);

/** `keygate sign-jwt`. */
export const signJwtCommand = defineCommand(
  {
    name: 'sign-jwt',
    summary: 'a JWT signed in the key server by a signing key',
    usage: SIGN_JWT_USAGE,
    options: { claims: { type: 'string' }, header: { type: 'string' } },
  },
  async ({ values, positionals }, ctx) => {
    const ttag = onlyTtag(positionals, 'sign-jwt');
    const claims = jsonObject(text(values, 'claims'), '--claims');
    if (claims === undefined) throw new UsageError('sign-jwt: --claims JSON is required');
    const header = jsonObject(text(values, 'header'), '--header') as Record<string, string> | undefined;
    const signed = await session(values, ctx.env).signJwt(ttag, claims, header);
    print(ctx, values.json, signed, () => `${signed.jwt}\n`);
  },
);

function onlyTtag(positionals: readonly string[], command: string): string {
  const [ttag, extra] = positionals;
  if (ttag === undefined) throw new UsageError(`${command}: TTAG is required`);
  if (extra !== undefined) throw new UsageError(`${command}: one TTAG only (unexpected "${extra}")`);
  return ttag;
}

function algOf(values: Values, command: string): SigningAlg {
  const alg = text(values, 'alg');
  if (alg === undefined || !(SIGNING_ALGS as readonly string[]).includes(alg))
    throw new UsageError(`${command}: --alg is one of ${SIGNING_ALGS.join(', ')}`);
  return alg as SigningAlg;
}

/** The message (a file, or stdin as `-`) or the digest (hex), exactly one. */
function signInput(values: Values, command: string): SignInput {
  const alg = algOf(values, command);
  const file = text(values, 'in');
  const hex = text(values, 'digest-hex');
  if ((file === undefined) === (hex === undefined)) throw new UsageError(`${command}: give --in FILE or --digest-hex HEX, one of them`);
  if (hex !== undefined) {
    if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) throw new UsageError(`${command}: --digest-hex is an even number of hex digits`);
    return { alg, digest: Uint8Array.from(Buffer.from(hex, 'hex')) };
  }
  return { alg, message: Uint8Array.from(readInput(file!, command)) };
}

function readInput(file: string, command: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    throw new UsageError(`${command}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The signature from a file of its bytes or as standard base64, exactly one. */
function signatureOf(values: Values): Uint8Array {
  const file = text(values, 'signature');
  const b64 = text(values, 'signature-b64');
  if ((file === undefined) === (b64 === undefined)) throw new UsageError('verify: give --signature FILE or --signature-b64 S, one of them');
  if (file !== undefined) return Uint8Array.from(readInput(file, 'verify'));
  try {
    return fromBase64(b64!);
  } catch {
    throw new UsageError('verify: --signature-b64 is not base64');
  }
}

function jsonObject(json: string | undefined, flag: string): Record<string, unknown> | undefined {
  if (json === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new UsageError(`sign-jwt: ${flag} is not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`sign-jwt: ${flag} is not a JSON object`);
  return value as Record<string, unknown>;
}
