/**
 * keygate/client: a browser client of the gateway's /api surface, on WebCrypto and fetch alone.
 * It mints a DPoP proof for every request of a bound session, opens key exports with a
 * non-extractable ECDH key (or an X-Wing key pair, the post-quantum wrap of docs/spec.md §3.4), and
 * reports refusals as typed errors. It never uses cookies.
 */

export type { EncryptionContext } from '../wire/encryption-context.js';
export type {
  AccessView,
  AclEntry,
  AclView,
  AliasView,
  BatchItemResult,
  Data,
  ExportedKey,
  ExportedSigningKey,
  GrantConditions,
  HealthView,
  Identity,
  Jwks,
  KeyLength,
  KeyListQuery,
  KeySummary,
  KeyType,
  KeyVersionView,
  KeyView,
  ListView,
  MacView,
  NewKeyRequest,
  PublicKeyView,
  Retryable,
  Right,
  Sealed,
  SessionListItem,
  SessionView,
  SignatureView,
  SignedJwt,
  SignInput,
  SigningAlg,
  SigningJwk,
  TrustedIssuerSettings,
  TrustedIssuerView,
  VerifyInput,
  VerifyView,
} from './api-types.js';
export { fromBase64, fromUtf8, toBase64, toBase64url } from './base64.js';
export { type ApiErrorBody, apiErrorFrom, KeygateApiError, ReauthRequiredError, UNEXPECTED_RESPONSE } from './client-errors.js';
export { ExportKey, ExportUnwrapError, unwrapExport, type WrappedKey } from './export-key.js';
export {
  type AuditQueryRequest,
  type AuditRecordView,
  KeygateAdmin,
  type NewPrincipalRequest,
  type PrincipalView,
  type RoleView,
} from './keygate-admin.js';
export { KeygateClient, type KeygateClientOptions } from './keygate-client.js';
export {
  type ClientKey,
  type ClientWrapped,
  type DataKey,
  KeygateSession,
  type ScopedSessionRequest,
  type WrapOption,
} from './keygate-session.js';
export { mintProof, type ProofClaims, type ProofRequest, proofHtu } from './mint-proof.js';
export { jwkThumbprint, ProofKey, type PublicJwk } from './proof-key.js';
export { type DecryptStreamOptions, decryptStream, type EncryptStreamOptions, encryptStream, type StreamSession } from './stream-cipher.js';
export {
  StreamContextMismatchError,
  StreamDecryptError,
  StreamError,
  StreamFormatError,
  StreamKeyMismatchError,
} from './stream-errors.js';
export type { TransportOptions } from './transport.js';
export { fingerprint } from './web-crypto.js';
export { newXWingKeyPair, unwrapXWing, XWingKeyPair, type XWingWrapPurpose, type XWingWrappedKey } from './xwing-key.js';
