import { z } from 'zod';
import { KEY_TYPES, SIGNING_ALGS } from '../../../wire/key-type.js';
import { responses } from './api-responses.js';

const alg = z.enum(SIGNING_ALGS);
const version = z.number().int().min(1).describe('the key version');
const kid = z.string().describe("the version's key id: its public JWK's RFC 7638 thumbprint");
/** A public JWK (docs/spec.md §4.25 item 6): the key's members, `kid`, `alg` and `use: "sig"`. */
const jwk = z
  .object({ kty: z.enum(['EC', 'OKP', 'RSA']), kid: z.string(), alg, use: z.literal('sig') })
  .catchall(z.string())
  .meta({ id: 'SigningJwk' });

/** The answers of the signing routes (docs/spec.md §4.25 items 3 to 6). */
export const signingResponses = {
  signed: z.object({
    signature: z.string().describe('standard base64: ECDSA as raw r || s, Ed25519 64 bytes, RSA as long as the modulus'),
    alg,
    version,
    kid,
  }),
  verified: z.object({
    valid: z.boolean(),
    version: version.optional().describe('the version that verified it'),
    kid: kid.optional(),
  }),
  jwt: z.object({ jwt: z.string().describe('a compact JWS'), alg, version, kid }),
  publicKey: z.object({
    ttag: z.string(),
    type: z.enum(KEY_TYPES),
    alg,
    version,
    kid,
    pem: z.string().describe('the public key as PEM (SPKI)'),
    jwk,
  }),
  jwks: z.object({ keys: z.array(jwk).describe('every version not retired, newest first') }),
  batch: responses.batch,
};
