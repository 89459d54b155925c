import { z } from 'zod';
import { AUDIT_RECORD_OUTCOMES } from '../../../domain/audit/audit.js';
import { AUDIT_BATCH_KEYS_MAX } from '../../../domain/audit/audit-batch-keys.js';
import { AUDIT_CONTEXTS_MAX } from '../../../domain/audit/audit-context.js';
import { AUDIT_KID_MAX } from '../../../domain/audit/audit-signing.js';
import { AUDIT_BREAK_KINDS } from '../../../domain/audit/audit-verify.js';
import { ERROR_CODES } from '../../../domain/errors/error-codes.js';
import { XWING_WRAP_ALGO } from '../../../domain/keywrap/keywrap.js';
import { RIGHTS } from '../../../wire/acl.js';
import type { AliasView } from '../../../wire/alias.js';
import { CONTEXT_MEMBERS_MAX, CONTEXT_NAME, CONTEXT_VALUE_MAX } from '../../../wire/encryption-context.js';
import { KEY_TYPES, SIGNING_ALGS } from '../../../wire/key-type.js';
import { KEY_STATES, KEY_USES, type KeySummary, type KeyVersionView, type KeyView } from '../../../wire/key-view.js';
import { PRINCIPAL_KINDS } from '../../../wire/principal.js';
import { ISSUER_ALGORITHMS } from '../../../wire/workload-issuer.js';

/**
 * The bodies the /api surface answers (docs/spec.md §4.4-§4.16, §6.1), as zod schemas: the OpenAPI document's
 * response schemas come from them, as its request schemas come from the routes' own.
 */
const instant = z.iso.datetime({ offset: true });
const base64 = z.string().describe('standard base64');
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const right = z.enum(RIGHTS);

/** docs/spec.md §6.1: every error body. */
export const errorBody = z
  .object({
    code: z.enum(ERROR_CODES),
    detail: z.string(),
    retryable: z.boolean().optional(),
    reason: z
      .string()
      .optional()
      .describe(
        'why, for a 409 CONFLICT: PRINCIPAL_EXISTS (certificate provisioning meets an existing principal), CONCURRENT_CHANGE (a verified write was overtaken by another writer), LAST_ADMIN (the change would leave no administrator), ...',
      ),
    scope: z.enum(['session', 'process']).optional(),
    reauth: z.boolean().optional(),
    outcome: z
      .literal('unknown')
      .optional()
      .describe('the write may have taken effect (its call reached the key server, no answer came); absent: the write did not happen'),
    check: z
      .string()
      .optional()
      .describe('with outcome: the read that shows whether the write took effect, e.g. GET /api/principals/alice'),
  })
  .meta({ id: 'Error' });

/** A list answer: `complete: false` travels with its `reason`; `next` leads to the following page. */
function list<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), complete: z.boolean(), reason: z.string().optional(), next: z.string().optional() });
}

const identity = z.object({ user: z.string(), systemId: z.number().int(), principalId: z.string().regex(/^[0-9a-f]{16}$/) });

export const sessionView = z
  .object({
    sessionId: z.string().optional().describe('only when the session is minted'),
    ...identity.shape,
    kind: z.enum(['password', 'certificate', 'jwt', 'scoped', 'delegated']),
    bound: z.boolean(),
    jkt: z.string().optional(),
    objects: z.array(base64).optional(),
    rights: z.array(right).optional(),
    expiresAt: instant,
    actingFor: z.string().optional(),
  })
  .meta({ id: 'Session' });

const sessionItem = z.object({ ref: z.string(), kind: sessionView.shape.kind, bound: z.boolean(), createdAt: instant, expiresAt: instant });
const gcm = z.enum(['A128GCM', 'A192GCM', 'A256GCM']);

const keyVersionView = z
  .object({ version: z.number().int().min(1), createdAt: instant, state: z.enum(['active', 'retired']) })
  .meta({ id: 'KeyVersion' }) satisfies z.ZodType<KeyVersionView>;

/** An `aes` key's or a data key's length in bytes. */
const keyLength = z.union([z.literal(16), z.literal(24), z.literal(32)]);

/** The key view (src/wire/key-view.ts, the one declaration): a field the wire type changes and this does not fails the typecheck. */
export const keyView = z
  .object({
    ttag: base64,
    type: z.enum(KEY_TYPES).describe('aes, or a signing key type (docs/spec.md §4.25)'),
    keyLen: keyLength.optional().describe("an aes key's length in bytes"),
    algo: z.string().optional().describe("an aes key's export label"),
    alg: z.enum(SIGNING_ALGS).optional().describe("a signing key's algorithm: its JWKS names it, sign-jwt uses it"),
    exportable: z.boolean().optional().describe("a signing key's: whether its private key may be exported"),
    published: z.boolean().optional().describe("a signing key's: whether its JWKS is served without a session"),
    jwtMaxLifetime: z.number().int().optional().describe("a signing key's: the longest lifetime of a JWT it signs, seconds"),
    label: z.string().optional(),
    owner: identity,
    state: z.enum(KEY_STATES).describe('the first that holds of deleted, pending-deletion, expired, disabled, active'),
    createdAt: instant,
    expiresAt: instant.optional(),
    version: z.number().int().min(1).describe('the newest version: encrypt and MAC use it, export delivers it by default'),
    minVersion: z.number().int().min(1).describe('versions below it are retired'),
    versions: z
      .array(keyVersionView)
      .describe('the newest versions (at most 20), oldest first; GET /api/keys/{ttag}/versions pages through all'),
    versionsOmitted: z.number().int().min(1).optional().describe('how many older versions `versions` leaves out, when any'),
    rotationPeriod: z.string().optional().describe('ISO 8601 duration: the key server rotates the key once it has passed'),
    nextRotationAt: instant.optional(),
    tags: z.record(z.string(), z.string()).describe("the key's tags, name to value; {} for none (docs/spec.md §4.23 item 2)"),
    deletionAt: instant.optional().describe('when the key server destroys the key, while it is pending deletion'),
    deletedAt: instant.optional().describe('when the key server destroyed the key: only its tombstone remains'),
    lastUsedAt: instant
      .optional()
      .describe('when the key was last used, at most 60 s behind its latest use (docs/spec.md §4.23 item 6); absent until its first use'),
    lastUsedOperation: z.enum(KEY_USES).optional().describe('the use that wrote lastUsedAt'),
  })
  .meta({ id: 'Key' }) satisfies z.ZodType<KeyView>;

/** A key as the key list shows it (docs/spec.md §4.23 item 1): the key view without its versions. */
export const keySummary = keyView
  .omit({ versions: true, versionsOmitted: true })
  .meta({ id: 'KeySummary' }) satisfies z.ZodType<KeySummary>;

/** One alias (docs/spec.md §4.23 item 3). */
const aliasView = z
  .object({ alias: z.string(), ttag: base64, createdAt: instant, updatedAt: instant })
  .meta({ id: 'Alias' }) satisfies z.ZodType<AliasView>;

/** A key wrapped to the client's ephemeral P-256 key (docs/spec.md §3.2). */
const wrappedKey = z.object({ gatewayPubKey: base64, salt: base64, iv: base64, ciphertext: base64, authTag: base64 });

/** A key wrapped to the client's X-Wing public key with HPKE (docs/spec.md §3.4 item 2). */
const xwingWrappedKey = z.object({
  algo: z.literal(XWING_WRAP_ALGO).describe('the HPKE suite: KEM X-Wing, KDF HKDF-SHA256, AEAD AES-256-GCM'),
  enc: base64.describe('the encapsulated key, 1,120 bytes'),
  ciphertext: base64.describe('the sealed key, then the 16-byte tag'),
});

/** On /api, `wrapped` is either wrap, by the kind of `clientPubKey` (docs/spec.md §3.4). */
const apiWrappedKey = z.xor([wrappedKey, xwingWrappedKey]).meta({ id: 'ClientWrappedKey' });

export const wrappedExport = z
  .object({
    wrapped: wrappedKey,
    algo: z.string(),
    keyLen: keyLength,
  })
  .meta({ id: 'WrappedKey' });

const version = z.number().int().min(1).describe('the key version');

/**
 * A batch answer (docs/spec.md §4.22 item 8): one result per item, in order; a failed item carries
 * the code and detail its single request would have answered.
 */
function batchOf<T extends z.ZodObject>(result: T) {
  const failed = z.object({ ok: z.literal(false), error: z.object({ code: z.string(), detail: z.string() }) });
  return z.object({ items: z.array(z.union([result.extend({ ok: z.literal(true) }), failed])) });
}

/** A grant condition's context as answered (docs/spec.md §4.5b item 4): member name to value. */
const conditionContext = z.record(z.string(), z.string());
/** An ACL entry: `conditions` only on an entry that has them (docs/spec.md §4.5b item 4). */
const aclEntry = z.object({
  principal: z.string(),
  rights: z.array(right),
  conditions: z.object({ context: conditionContext }).optional(),
});

export const principalView = z
  .object({
    name: z.string(),
    kind: z.enum(PRINCIPAL_KINDS as ['user', 'group', 'service']),
    systemId: z.number().int(),
    principalId: z.string().regex(/^[0-9a-f]{16}$/),
    displayName: z.string().optional(),
    disabled: z.boolean(),
    roles: z.array(z.string()),
    createdAt: instant,
    jkt: z.string().optional(),
    delegates: z
      .array(z.string())
      .optional()
      .describe('a service: the principals and groups it may mint delegated sessions for (admin-managed; never one holding admin)'),
    provisionedBy: z
      .string()
      .optional()
      .describe('a principal made by certificate auto-provisioning: the issuing authority certificate id'),
  })
  .meta({ id: 'Principal' });

const role = z.object({ name: z.string(), operations: z.array(z.string()) }).meta({ id: 'Role' });

export const certificate = z
  .object({
    id: hex64,
    subject: z.string(),
    issuer: z.string(),
    serial: z.string(),
    notBefore: instant,
    notAfter: instant,
    keyAlg: z.string(),
    principal: z.string().optional(),
    pem: z.string(),
  })
  .meta({ id: 'Certificate' });

const parameter = z
  .object({
    name: z.string(),
    value: z.union([z.number(), z.boolean(), z.string()]),
    type: z.enum(['integer', 'boolean', 'string']),
    description: z.string(),
  })
  .meta({ id: 'ServerParameter' });

const policy = z
  .object({
    autoProvision: z.boolean(),
    nameAttribute: z.enum(['CN', 'UID', 'emailAddress']),
    defaultRoles: z.array(z.string()),
    defaultGroups: z.array(z.string()),
  })
  .meta({ id: 'ProvisioningPolicy' });

/** A context as a record holds it (docs/spec.md §4.5b item 1; bounded by `auditContextFields`). */
const auditContext = z
  .record(z.string().regex(CONTEXT_NAME), z.string().max(CONTEXT_VALUE_MAX))
  .meta({ minProperties: 1, maxProperties: CONTEXT_MEMBERS_MAX });

const auditRecord = z
  .object({
    id: z.string().regex(/^[0-9a-f]{32}$/),
    at: instant,
    requestId: z.string(),
    principal: z.string().optional(),
    sessionRef: z.string().optional(),
    operation: z.string(),
    object: z.string().optional(),
    outcome: z.enum(AUDIT_RECORD_OUTCOMES),
    status: z.number().int(),
    code: z.string().optional(),
    clientAddress: z.string().optional().describe("the connection's peer address (never a forwarded header)"),
    actingFor: z.string().optional().describe('for a delegated session: the service acting for `principal`'),
    version: z.number().int().optional().describe('the key version the operation acted on'),
    items: z.number().int().optional().describe("a batch's item count"),
    failures: z.number().int().optional().describe('how many items of a batch failed'),
    keys: z
      .array(z.object({ ttag: base64, version: z.number().int().optional() }))
      .max(AUDIT_BATCH_KEYS_MAX)
      .optional()
      .describe(
        `a batch: every distinct key and version its items named, in the order first named (at most ${AUDIT_BATCH_KEYS_MAX}); version absent when no answer named it (a failed encrypt or MAC)`,
      ),
    keysOmitted: z
      .number()
      .int()
      .optional()
      .describe('a batch that named more distinct keys and versions than `keys` holds: how many more'),
    alias: z.string().optional().describe('the alias the request named its key by; `object` is then the ttag it resolved to'),
    keyType: z.enum(KEY_TYPES).optional().describe("a signing operation: the key's type (docs/spec.md §4.25 item 8)"),
    alg: z.enum(SIGNING_ALGS).optional().describe('a signing operation: the algorithm it used'),
    kid: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .max(AUDIT_KID_MAX)
      .optional()
      .describe('a signing operation: the key id (RFC 7638 thumbprint) of the version it used'),
    context: auditContext
      .optional()
      .describe('the encryption context a single encrypt, decrypt, rewrap, data key or data-key opening named (docs/spec.md §4.5b item 5)'),
    contexts: z
      .array(auditContext)
      .max(AUDIT_CONTEXTS_MAX)
      .optional()
      .describe(
        `a batch of those: every distinct non-empty context its items named, in the order first named (at most ${AUDIT_CONTEXTS_MAX})`,
      ),
    contextsOmitted: z.number().int().optional().describe('a batch that named more distinct contexts than `contexts` holds: how many more'),
  })
  .meta({ id: 'AuditRecord' });

const auditBreak = z
  .object({ writer: z.string(), seq: z.number().int(), id: z.string().optional(), kind: z.enum(AUDIT_BREAK_KINDS), detail: z.string() })
  .meta({ id: 'AuditBreak' });

const auditVerification = z
  .object({
    ok: z.boolean(),
    checked: z.number().int(),
    writers: z.array(
      z.object({
        writer: z.string(),
        entries: z.number().int(),
        lastSeq: z.number().int(),
        lastCheckpoint: z.number().int().nullable(),
        breaks: z.number().int().describe("the breaks found in this writer's chain, checkpoints and witnessed head"),
        unlisted: z.number().int().describe('how many of them `breaks` does not list (past the first 100 of this writer)'),
      }),
    ),
    breaks: z.array(auditBreak).describe("every break, writer after writer, each writer's by seq; at most 100 per writer"),
    firstBreak: auditBreak.optional().describe('the earliest break in time across writers'),
  })
  .meta({ id: 'AuditVerification' });

const check = z.enum(['ok', 'unavailable']);

/** A gateway on key-server daemons lists each one (URL, certificate fingerprint once known, whether it serves). */
export const keyServerDaemons = z
  .array(z.object({ url: z.string(), fingerprint: hex64.optional(), ok: z.boolean() }))
  .optional()
  .describe('each key-server daemon; absent with the embedded key server');

/** Every success body, by what it shows. */
/** docs/spec.md §4.24 item 1: a trusted issuer of workload identity tokens. */
const trustedIssuer = z
  .object({
    name: z.string(),
    issuer: z.string(),
    jwksUri: z.string().optional(),
    jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).optional(),
    audiences: z.array(z.string()),
    algorithms: z.array(z.enum(ISSUER_ALGORITHMS)),
    principal: z.string().describe('a template over the token claims, e.g. ci-{repository_id}'),
    createPrincipals: z.boolean(),
    roles: z.array(z.string()),
    boundClaims: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    requireJti: z.boolean(),
    maxTokenAge: z.number().int().optional(),
    leeway: z.number().int(),
  })
  .meta({ id: 'TrustedIssuer' });

export const responses = {
  session: sessionView,
  challenge: z.object({ challengeId: z.string(), challenge: z.string().describe('32 bytes, base64url'), expiresAt: instant }),
  sessions: list(sessionItem),
  encrypted: z.object({
    ciphertext: base64,
    iv: base64,
    authTag: base64,
    alg: gcm,
    version,
    sealed: z.string().describe('kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5)'),
  }),
  decrypted: z.object({ plaintext: base64 }),
  mac: z.object({ mac: base64, alg: z.literal('HS256'), version }),
  macValid: z.object({ valid: z.boolean() }),
  key: keyView,
  keyVersions: list(keyVersionView),
  keys: list(keySummary),
  tag: z.object({ name: z.string(), value: z.string() }),
  alias: aliasView,
  aliases: list(aliasView),
  batch: batchOf,
  /** An aes key's raw bytes, or an exportable signing key's PKCS#8 (docs/spec.md §4.25 item 1), wrapped as §3.2 says. */
  exported: z
    .union([
      wrappedExport.extend({ wrapped: apiWrappedKey, version }),
      z.object({
        wrapped: apiWrappedKey,
        type: z.enum(KEY_TYPES).exclude(['aes']).describe('the signing key type'),
        format: z.literal('pkcs8').describe("the private key's PKCS#8 (DER), wrapped"),
        version,
      }),
    ])
    .meta({ id: 'WrappedKeyVersion' }),
  /** docs/spec.md §4.5a: the data key sealed under `version` (`blob`), and wrapped when a clientPubKey was sent. */
  dataKey: z
    .object({
      blob: base64.describe('the data key sealed under the key version (docs/spec.md §4.5a item 5)'),
      wrapped: apiWrappedKey
        .optional()
        .describe('the data key wrapped to clientPubKey (info `keygate datakey v1`, or `v2` to an X-Wing key); only when one was sent'),
      keyLen: keyLength,
      version,
    })
    .meta({ id: 'DataKey' }),
  dataKeyOpened: z.object({ wrapped: apiWrappedKey, keyLen: keyLength, version }).meta({ id: 'DataKeyOpened' }),
  acl: z.object({ owner: identity, items: z.array(aclEntry), complete: z.literal(true) }),
  aclEntry,
  access: z.object({
    rights: z.array(right),
    conditional: z.array(z.object({ rights: z.array(right), context: conditionContext })).optional(),
  }),
  principal: principalView,
  principals: list(principalView),
  senderKey: z.object({ jkt: z.string() }),
  roles: list(role),
  role,
  certificate,
  certificates: list(certificate),
  issuer: trustedIssuer,
  issuers: list(trustedIssuer),
  verdict: z.object({ trusted: z.boolean(), chain: z.array(hex64), reason: z.string().optional() }),
  version: z.object({ keyServer: z.string(), gateway: z.string(), api: z.string() }),
  config: z.record(z.string(), z.unknown()).describe('the key-server configuration, secrets redacted'),
  parameters: list(parameter),
  parameter,
  policy,
  auditPage: list(auditRecord),
  auditRecord,
  auditVerify: auditVerification,
  health: z
    .object({
      ok: z.boolean(),
      ksFingerprint: z.string(),
      sessions: z.number().int(),
      version: z.string(),
      checks: z.object({
        keyServer: check,
        auditStore: check,
        sessionStore: check,
        writer: z
          .enum(['ok', 'conflict'])
          .describe('`conflict`: a store this gateway writes alone had its writer lock removed or replaced'),
        jwks: check
          .optional()
          .describe("workload issuers' key sets (docs/spec.md §4.24 item 6), once one was fetched: `unavailable` while a fetch failed"),
      }),
      /** Present when a failed check has a public reason (an audit chain that regressed, a writer conflict). */
      reasons: z.object({ keyServer: z.string().optional(), auditStore: z.string().optional(), writer: z.string().optional() }).optional(),
      keyServers: keyServerDaemons,
    })
    .meta({ id: 'Health' }),
} as const;
