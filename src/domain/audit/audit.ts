import type { RandomSource } from '../../crypto/random-source.js';
import type { EncryptionContext } from '../../wire/encryption-context.js';

/** How an operation ended, as an auditor reads it (docs/spec.md §9.1). */
export const AUDIT_OUTCOMES = ['ok', 'denied', 'error'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * A stored record's outcome: one of the three, or `pending` while a sensitive operation runs. A record
 * left `pending` is an operation that was begun and whose outcome could never be written (the audit
 * store failed, or the process stopped, after the operation started): an auditor looks for those.
 */
export const AUDIT_RECORD_OUTCOMES = [...AUDIT_OUTCOMES, 'pending'] as const;
export type AuditRecordOutcome = (typeof AUDIT_RECORD_OUTCOMES)[number];

/**
 * One audited operation (docs/spec.md §9.1). Never a secret: no password, token, session id, key
 * material or proof is ever part of a record.
 */
export interface AuditRecord {
  /** 32 lower-case hex characters (128 random bits); see `newAuditId`. */
  readonly id: string;
  /** When the request arrived, in milliseconds since the epoch. */
  readonly at: number;
  /** The `X-Request-Id` the response carried. */
  readonly requestId: string;
  /** The acting principal, by user name (for a login, the name that was tried). */
  readonly principal?: string;
  /** The session's short non-secret reference (`sessionRef`), never the session id. */
  readonly sessionRef?: string;
  /** Dotted operation id: `login`, `keys.export`, `health`, ... */
  readonly operation: string;
  /** What the operation acted on: a ttag, or a ttag and a grantee. */
  readonly object?: string;
  readonly outcome: AuditRecordOutcome;
  /** The HTTP status answered; 0 while pending. */
  readonly status: number;
  /** The contract error code, when the operation failed. */
  readonly code?: string;
  /** The peer address of the connection the request came on (the socket's, never a forwarded header). */
  readonly clientAddress?: string;
  /** For a delegated session: the service principal acting for `principal`. */
  readonly actingFor?: string;
  /** The key version the operation acted on (docs/spec.md §9.1). */
  readonly version?: number;
  /** For a batch: how many items it held (docs/spec.md §4.22 item 8). */
  readonly items?: number;
  /** For a batch: how many of its items failed. */
  readonly failures?: number;
  /** For a batch: every distinct key and version its items named, at most AUDIT_BATCH_KEYS_MAX (audit-batch-keys.ts). */
  readonly keys?: readonly AuditKeyUse[];
  /** For a batch that named more distinct keys and versions than `keys` holds: how many more. */
  readonly keysOmitted?: number;
  /** The alias the request named its key by (docs/spec.md §4.23 item 3); `object` is then the ttag it resolved to. */
  readonly alias?: string;
  /** A signing key's type, the algorithm and the version's key id an operation used (docs/spec.md §4.25 item 8). */
  readonly keyType?: string;
  readonly alg?: string;
  readonly kid?: string;
  /**
   * The encryption context a single request named (docs/spec.md §4.5b item 5); a batch's distinct ones,
   * and how many more it named. Bounded by `auditContextFields` (audit-context.ts).
   */
  readonly context?: EncryptionContext;
  readonly contexts?: readonly EncryptionContext[];
  readonly contextsOmitted?: number;
}

/** A key a batch item named and the version it used (absent when no answer said which: a failed encrypt). */
export interface AuditKeyUse {
  readonly ttag: string;
  readonly version?: number;
}

/** What finalises a pending record once the response is decided. Given fields replace stored ones. */
export interface AuditCompletion {
  readonly outcome: AuditOutcome;
  readonly status: number;
  readonly code?: string;
  readonly principal?: string;
  readonly sessionRef?: string;
  readonly object?: string;
  readonly actingFor?: string;
  readonly version?: number;
  readonly items?: number;
  readonly failures?: number;
  readonly keys?: readonly AuditKeyUse[];
  readonly keysOmitted?: number;
  readonly alias?: string;
  readonly keyType?: string;
  readonly alg?: string;
  readonly kid?: string;
  readonly context?: EncryptionContext;
  readonly contexts?: readonly EncryptionContext[];
  readonly contextsOmitted?: number;
  /** When the outcome was decided (ms since the epoch); the outcome entry's `at`. */
  readonly at?: number;
}

/** Status of a pending record: no response has been decided yet. */
export const PENDING_STATUS = 0;

/** 2xx is ok; 401 and 403 are refusals (docs/spec.md §9.1, `outcome`); else error. */
export function outcomeForStatus(status: number): AuditOutcome {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 401 || status === 403) return 'denied';
  return 'error';
}

/**
 * Operations that change state, mint a session or release key material. Like a trusted key manager,
 * the gateway never performs them without a record the audit store has taken (fail closed).
 */
export const SENSITIVE_OPERATIONS: ReadonlySet<string> = new Set([
  'login',
  'logout',
  'keys.generate',
  'keys.export',
  'keys.grant',
  'keys.revoke',
]);

export function isSensitiveOperation(operation: string): boolean {
  return SENSITIVE_OPERATIONS.has(operation);
}

/**
 * The `object` of a change to a key's ACL: the ttag, one space, the grantee. A ttag is base64 and has
 * no space, so the pair splits at the first one.
 */
export function aclEntryObject(ttag: string, grantee: string): string {
  return `${ttag} ${grantee}`;
}

/**
 * The `object` of a change to a group's members: the JSON object `{"group":...,"member":...}`, keys in
 * that order. Names may hold spaces, so a joined pair would be ambiguous ("team x" into "ops" and "x"
 * into "ops team" would both read `ops team x`); JSON keeps each name whole, and an auditor finds a
 * change by this exact text (the `object` filter of the audit query).
 */
export function membershipObject(group: string, member: string): string {
  return JSON.stringify({ group, member });
}

const AUDIT_ID = /^[0-9a-f]{32}$/;

/** A fresh record id: 16 random bytes, lower-case hex (sorts the same bytewise in every store). */
export function newAuditId(random: RandomSource): string {
  return Buffer.from(random.bytes(16)).toString('hex');
}

export function isAuditId(value: string): boolean {
  return AUDIT_ID.test(value);
}

/** The record a completion turns a pending record into (absent optional fields stay absent). */
export function completeRecord(record: AuditRecord, completion: AuditCompletion): AuditRecord {
  // Plain loops, no spreads: this runs on every audited request.
  const out: Record<string, unknown> = {};
  for (const key in record) {
    const value = record[key as keyof AuditRecord];
    if (value !== undefined) out[key] = value;
  }
  for (const key in completion) {
    const value = completion[key as keyof AuditCompletion];
    if (value !== undefined && key !== 'at') out[key] = value;
  }
  return out as unknown as AuditRecord;
}
