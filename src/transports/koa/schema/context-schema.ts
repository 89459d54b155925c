import { CONTEXT_MEMBERS_MAX, CONTEXT_NAME, CONTEXT_VALUE_MAX } from '../../../wire/encryption-context.js';
import { encryptionContext } from '../../../wire/keyserver-values.js';

/**
 * A request's `context` (docs/spec.md §4.5b item 1): 0..16 members, each name 1..128 of the allowed
 * ASCII characters, each value a string of 0..256 characters under the text rule. Checked by the one
 * rule the key server applies too (src/wire/encryption-context.ts), so a bad one is the surface's
 * BAD_REQUEST naming `context` or `context.<name>` (`items.<n>.context.<name>` in a batch); the
 * document shows its shape.
 */
export const encryptionContextField = encryptionContext.meta({
  type: 'object',
  maxProperties: CONTEXT_MEMBERS_MAX,
  propertyNames: { pattern: CONTEXT_NAME.source },
  additionalProperties: { type: 'string', maxLength: CONTEXT_VALUE_MAX },
  description:
    'the encryption context (docs/spec.md §4.5b): names to strings, bound to the ciphertext or the data key and needed again to open it; not secret',
});
