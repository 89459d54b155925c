import { z } from 'zod';
import type { DecryptRequest, EncryptResult } from '../../../wire/crypto-messages.js';
import { base64Of } from './crypto-bytes.js';

/**
 * Sealed text (docs/spec.md §4.5): one string naming the key version and holding every value needed to
 * decrypt, `kg:v<version>:<standard base64 of iv || ciphertext || authTag>`. `aad` is not in it: the
 * caller sends it again. The key server knows nothing of it: the /api edge composes it from an encrypt
 * answer and reads it into the separate fields of a decrypt request.
 */
const PREFIX = 'kg:v';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The version in decimal, from 1, without leading zeros, then `:`. */
const HEAD = /^kg:v([1-9][0-9]{0,15}):/;

/** The sealed text of an encrypt answer. */
export function sealedTextOf(answer: Pick<EncryptResult, 'iv' | 'ciphertext' | 'authTag' | 'version'>): string {
  return `${PREFIX}${answer.version}:${base64Of(Buffer.concat([answer.iv, answer.ciphertext, answer.authTag]))}`;
}

/** An encrypt answer with its sealed text beside its fields. */
export function withSealedText<A extends Pick<EncryptResult, 'iv' | 'ciphertext' | 'authTag' | 'version'>>(
  answer: A,
): A & { sealed: string } {
  return { ...answer, sealed: sealedTextOf(answer) };
}

type Parts = Pick<DecryptRequest, 'ciphertext' | 'iv' | 'authTag'> & { readonly version: number };

/** Why `text` is not sealed text, or its parts (fresh arrays the route zeroes). */
function readSealedText(text: string): Parts | { fault: string } {
  if (!text.startsWith(PREFIX)) return { fault: `expected ${PREFIX}<version>:<base64>` };
  const head = HEAD.exec(text);
  const version = head === null ? Number.NaN : Number(head[1]);
  if (head === null || !Number.isSafeInteger(version)) return { fault: 'the version is not an integer from 1 followed by ":"' };
  const body = text.slice(head[0].length);
  if (!z.base64().safeParse(body).success) return { fault: 'not standard base64 after the version' };
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) return { fault: `expected at least ${IV_BYTES + TAG_BYTES} bytes, got ${bytes.length}` };
  return {
    version,
    iv: bytes.subarray(0, IV_BYTES),
    ciphertext: bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES),
    authTag: bytes.subarray(bytes.length - TAG_BYTES),
  };
}

/** A `sealed` request field: read once here, its fault the field's issue (parse.ts names it). */
export const sealedText = z
  .string()
  .max(2_000_000)
  .describe(
    'instead of ciphertext, iv, authTag and version (beside them only when they say the same): kg:v<version>:<standard base64 of iv || ciphertext || authTag> (docs/spec.md §4.5)',
  )
  .transform(function readSealed(value, ctx): Parts {
    const read = readSealedText(value);
    if ('fault' in read) {
      ctx.addIssue({ code: 'custom', message: read.fault, input: value });
      return z.NEVER;
    }
    return read;
  });

/** Whether a separate field holds what sealed text holds for it. */
function same(given: Uint8Array | number | undefined, sealed: Uint8Array | number): boolean {
  if (typeof given === 'number' || typeof sealed === 'number') return given === sealed;
  return given !== undefined && Buffer.from(given.buffer, given.byteOffset, given.byteLength).equals(sealed);
}

/** The separate fields that `sealed` stands for. */
const SEPARATE = ['ciphertext', 'iv', 'authTag', 'version'] as const;

type EitherForm = { sealed?: Parts | undefined } & Partial<Record<'ciphertext' | 'iv' | 'authTag', Uint8Array>> & {
    version?: number | undefined;
  };

/**
 * A decrypt or rewrap request in one of its forms (docs/spec.md §4.5): `sealed`, or the separate
 * `ciphertext`, `iv`, `authTag` (and `version`), or both when they say the same (an encrypt answer sent
 * back as it came). Either is handed inward as the separate fields.
 */
export function oneCiphertextForm<S extends z.ZodObject>(request: S) {
  return request
    .check(function exactlyOneForm(payload) {
      const value = payload.value as EitherForm;
      const { sealed } = value;
      // An encrypt answer sent back whole carries both forms: taken when they say the same.
      const disagree =
        sealed === undefined ? [] : SEPARATE.filter((field) => value[field] !== undefined && !same(value[field], sealed[field]));
      if (disagree.length > 0) {
        payload.issues.push({
          code: 'custom',
          path: ['sealed'],
          message: `sealed and ${disagree.join(', ')} disagree: send sealed or ${SEPARATE.join(', ')}, or both alike`,
          input: payload.value,
        });
      } else if (value.sealed === undefined) {
        for (const field of ['ciphertext', 'iv', 'authTag'] as const) {
          if (value[field] === undefined) {
            payload.issues.push({ code: 'custom', path: [field], message: 'required (or send sealed instead)', input: payload.value });
            return;
          }
        }
      }
    })
    .transform(function separateFields(value): Omit<z.output<S>, 'sealed'> & DecryptRequest {
      const { sealed, ...rest } = value as EitherForm & Record<string, unknown>;
      return (sealed === undefined ? rest : { ...rest, ...sealed }) as Omit<z.output<S>, 'sealed'> & DecryptRequest;
    });
}
