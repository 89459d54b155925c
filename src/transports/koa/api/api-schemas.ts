import { z } from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, type ListResult } from '../../../wire/list-result.js';
import { PRINCIPAL_NAME } from '../../../wire/principal.js';
import { ROLE_NAME } from '../../../wire/role.js';
import { text } from '../schema/text-schema.js';

/** Standard base64 (bodies carry binary values and ttags so, docs/spec.md §1.4). */
export const base64 = z.string().max(1_500_000).check(z.base64('not standard base64'));

/**
 * The longest `clientPubKey`: an X-Wing public key, 1,216 bytes, in standard base64 (docs/spec.md §3.4);
 * a P-256 point is 88 characters. The wrap checks the length in bytes.
 */
export const CLIENT_PUB_KEY_MAX_CHARS = 1624;

/** A ttag in a body: standard base64 (base64url is accepted as well, see parseTtag). */
export const ttag = text({ min: 1, minMessage: 'required', max: 512 });

/** A key version (docs/spec.md §4.22): an integer from 1; one above the newest is the key server's 404. */
export const keyVersion = z.number().int('an integer').min(1, 'at least 1').max(Number.MAX_SAFE_INTEGER);

/** A principal, group or role name in a path or body. */
export const name = text({ min: 1, minMessage: 'required', max: 256 });

/** A principal or group name in a path: the key server's rule (src/wire/principal.ts), shown in the document. */
export const principalName = z.string().min(1).max(64).regex(PRINCIPAL_NAME, 'not a principal name');

/** `limit` (1..500) and the opaque `cursor` of a paginated list. */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
  cursor: text({ min: 1, max: 1024 }).optional(),
};

/** A PEM field (64 KiB): the one kind of field whose text may hold line breaks and tabs (docs/spec.md §1.6). */
export const pem = text({ min: 1, minMessage: 'required', max: 65_536, controls: 'lines' });

/**
 * The path parameters by name, as the document shows them: `{ttag}` base64url (or standard base64
 * percent-encoded), a certificate `{id}` 64 hex characters, principal and group names by the key
 * server's rule, role names by the key server's role-name rule.
 */
export const pathParameters: Readonly<Record<string, z.ZodType>> = {
  ttag: z
    .string()
    .min(22)
    .max(1024)
    .regex(/^(?:[A-Za-z0-9_-]|%2[BbFf]|%3[Dd])+$/),
  id: z.string().regex(/^[0-9A-Fa-f]{64}$/),
  name: principalName,
  member: principalName,
  principal: principalName,
  role: z.string().regex(ROLE_NAME, 'not a role name'),
  parameter: z.string().min(1).max(128),
};

/**
 * A list answer (docs/spec.md §4.1 item 4): `complete: false` travels with its `reason`, so a list
 * the key server could not read whole is never shown as a whole one.
 */
export function listBody<T, U>(list: ListResult<T>, view: (item: T) => U = (item) => item as unknown as U) {
  return {
    items: list.items.map(view),
    complete: list.complete,
    ...(list.complete ? {} : { reason: list.reason ?? 'the key server could not read the whole list' }),
    ...(list.next === undefined ? {} : { next: list.next }),
  };
}
