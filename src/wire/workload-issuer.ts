import { z } from 'zod';
import { ruled, ruledJson } from './keyserver-values.js';

/**
 * A trusted issuer of workload identity tokens (docs/spec.md §4.24 item 1): what an administrator
 * writes, what the key server keeps (one JSON setting, no table) and what both sides check it by.
 */

/** The asymmetric JOSE algorithms an issuer may allow; `none` and HMAC never (docs/spec.md §4.24 item 1). */
export const ISSUER_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;
export type IssuerAlgorithm = (typeof ISSUER_ALGORITHMS)[number];

/** At most this many issuers (docs/spec.md §4.24 item 1). */
export const MAX_ISSUERS = 50;

/** An issuer's name: a path segment, so no `/`. */
export const ISSUER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A claim path: claim names separated by `/` (`kubernetes.io/serviceaccount/name`). */
export const CLAIM_PATH = /^[A-Za-z0-9_.:-]{1,64}(?:\/[A-Za-z0-9_.:-]{1,64}){0,3}$/;

/** A principal template: text and `{claim path}` placeholders, at least one; no stray brace. */
const TEMPLATE = /^(?:[^{}]|\{[A-Za-z0-9_.:-]{1,64}(?:\/[A-Za-z0-9_.:-]{1,64}){0,3}\})*$/;

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

function isUrl(value: string, schemes: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return schemes.includes(url.protocol) && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

const httpsUrl = ruled(z.string().min(1).max(512)).refine((value) => isUrl(value, ['https:']), 'not an absolute https URL');
/** `http` passes here; the gateway fetches it only for a host its operator listed (docs/spec.md §4.24 item 4). */
const jwksUri = ruled(z.string().min(1).max(512)).refine((value) => isUrl(value, ['https:', 'http:']), 'not an absolute https URL');
const claimText = ruled(z.string().min(1).max(512));

/** A public JWK: RSA, EC or OKP, no private member, never a symmetric key; the text rule first, so a refusal names the member. */
const publicJwk = ruledJson(z.record(z.string(), z.unknown())).superRefine(function checkPublicJwk(jwk, ctx) {
  if (!['RSA', 'EC', 'OKP'].includes(jwk.kty as string)) ctx.addIssue({ code: 'custom', message: 'kty: not RSA, EC or OKP' });
  const secret = PRIVATE_MEMBERS.find((member) => member in jwk);
  if (secret !== undefined) ctx.addIssue({ code: 'custom', message: `${secret}: a private member` });
  if (jwk.alg !== undefined && !ISSUER_ALGORITHMS.includes(jwk.alg as IssuerAlgorithm))
    ctx.addIssue({ code: 'custom', message: 'alg: not an asymmetric JOSE algorithm' });
});

/** An inline key set (`{ keys }`, 1..20 public keys). */
export const issuerJwks = ruledJson(z.strictObject({ keys: z.array(publicJwk).min(1).max(20) }));

const boundValue = z.union([claimText, z.array(claimText).min(1).max(20)]);

const issuerFields = {
  issuer: httpsUrl,
  jwksUri: jwksUri.optional(),
  jwks: issuerJwks.optional(),
  audiences: z.array(claimText).min(1).max(20),
  algorithms: z
    .array(z.enum(ISSUER_ALGORITHMS, { message: 'only asymmetric JOSE algorithms (none and HMAC are refused)' }))
    .min(1)
    .max(10),
  principal: ruled(z.string().min(1).max(256)).refine((value) => TEMPLATE.test(value), 'not a template of text and {claim} placeholders'),
  createPrincipals: z.boolean().default(false),
  roles: z
    .array(ruled(z.string().min(1).max(64)))
    .max(20)
    .default([]),
  boundClaims: z
    .record(z.string().regex(CLAIM_PATH, 'not a claim path'), boundValue)
    .refine((value) => Object.keys(value).length <= 20, 'at most 20 bound claims')
    .default({}),
  requireJti: z.boolean().default(false),
  maxTokenAge: z.number().int().min(1).max(86_400).optional(),
  leeway: z.number().int().min(0).max(300).default(30),
};

function checkIssuer(value: { jwksUri?: string | undefined; jwks?: unknown; roles: readonly string[] }, ctx: z.RefinementCtx): void {
  if ((value.jwksUri === undefined) === (value.jwks === undefined))
    ctx.addIssue({ code: 'custom', message: 'exactly one of jwksUri and jwks', path: ['jwksUri'] });
  if (value.roles.includes('admin')) ctx.addIssue({ code: 'custom', message: 'admin is never given by a workload token', path: ['roles'] });
}

export const issuerName = ruled(z.string()).refine((value) => ISSUER_NAME.test(value), 'not an issuer name');

/** Every field of an issuer but its name: the body of `PUT /api/trust/issuers/{name}`. */
export const issuerSettings = z.strictObject(issuerFields).superRefine(checkIssuer);

/** An issuer as kept and answered. */
export const workloadIssuer = z.strictObject({ name: issuerName, ...issuerFields }).superRefine(checkIssuer);

export type IssuerSettings = z.output<typeof issuerSettings>;
export type IssuerSettingsInput = z.input<typeof issuerSettings>;
export type WorkloadIssuer = z.output<typeof workloadIssuer>;

/**
 * A workload sign-in (docs/spec.md §4.24 item 2), as the gateway hands it to the key server: the token,
 * the issuer it names, and the key set the gateway fetched from the issuer's `jwksUri` (JSON).
 */
export interface WorkloadSignIn {
  readonly issuer?: string | undefined;
  readonly token: string;
  readonly jwksUri?: string | undefined;
  readonly jwks?: unknown;
  /** The thumbprint of the key of the DPoP proof sent with the sign-in, when one was (checked by the gateway). */
  readonly proofJkt?: string | undefined;
}

/**
 * The key server's answer to a sign-in that did not bring the key set the issuer publishes now (no set,
 * or one fetched from another `jwksUri`): fetch it from `jwksUri` and sign in again. Nothing of the
 * token was verified (docs/spec.md §4.24 item 4).
 */
export interface WorkloadKeySource {
  readonly keySource: { readonly issuer: string; readonly jwksUri: string };
}
