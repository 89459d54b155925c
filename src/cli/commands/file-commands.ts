import { fromBase64 } from '../../client/base64.js';
import { KeygateApiError } from '../../client/client-errors.js';
import { decryptStream, encryptStream } from '../../client/stream-cipher.js';
import { StreamError } from '../../client/stream-errors.js';
import { SEGMENT_SIZE } from '../../client/stream-format.js';
import {
  COMMON_USAGE,
  type CommandContext,
  CommandFailure,
  defineCommand,
  print,
  session,
  text,
  UsageError,
  type Values,
} from './command.js';
import { CONTEXT_OPTION, CONTEXT_USAGE, contextOf, contextOption } from './context-flag.js';
import { inputStream, stagedOutput } from './file-streams.js';

const FILES_USAGE = `  IN and OUT are files, or - for standard input and output. The file is read and written piece by
  piece, never held whole. OUT is written to a new file of mode 0600 beside it and moved into place only
  once the stream ended without an error; on any error nothing is left of it and the exit status is 1
  (interrupted by SIGINT or SIGTERM: 130 or 143). An existing OUT is replaced only with --force.`;

const ENCRYPT_FILE_USAGE = `Usage: keygate encrypt-file --key TTAG [--context NAME=VALUE]... [--segment-size N] [--force] IN OUT
  Encrypts IN into OUT in the stream format of docs/spec.md §4.5a (Streams): one data key from the
  gateway (right encrypt on TTAG), then AES-256-GCM segments made here; "keygate decrypt-file" and
  keygate/client's decryptStream read it.
${FILES_USAGE}
  --key TTAG            the key (its ttag in base64: the stream's header names it, so not an alias)
  --segment-size N      plaintext bytes per segment, 4096 to 4194304 (default 262144)
  --force               replace an existing OUT
${CONTEXT_USAGE}
${COMMON_USAGE}
`;

const DECRYPT_FILE_USAGE = `Usage: keygate decrypt-file [--key TTAG] [--context NAME=VALUE]... [--force] IN OUT
  Decrypts a stream that "keygate encrypt-file" or keygate/client's encryptStream wrote
  (docs/spec.md §4.5a, Streams): its header names the key and holds the data key's blob, which the
  gateway opens (right decrypt). Each segment is checked before its plaintext is written; to standard
  output (-) the plaintext is whole only when the command exits 0. A failure names its code:
  STREAM_MALFORMED (not a stream, or cut inside its header), STREAM_DECRYPT_FAILED and the segment
  (changed, reordered, cut or extended), STREAM_KEY_MISMATCH, STREAM_CONTEXT_MISMATCH, or the gateway's
  refusal (403 ACL_DENIED, 403 CONTEXT_REQUIRED, 400 DECRYPT_FAILED, ...).
${FILES_USAGE}
  --key TTAG            the key the stream must be under: one under another key is refused before the
                        gateway is asked (whoever may encrypt under some key can write a valid stream)
  --force               replace an existing OUT
  The stream's header holds the context it was written with, which opens its blob; given --context, the
  header's must be exactly that one (STREAM_CONTEXT_MISMATCH otherwise, before the gateway is asked).
${CONTEXT_USAGE}
${COMMON_USAGE}
`;

const FILE_OPTIONS = { key: { type: 'string' }, force: { type: 'boolean', default: false }, ...CONTEXT_OPTION } as const;

/** `keygate encrypt-file`. */
export const encryptFileCommand = defineCommand(
  {
    name: 'encrypt-file',
    summary: 'encrypt a file (or stdin) in the stream format, under a fresh data key',
    usage: ENCRYPT_FILE_USAGE,
    options: { ...FILE_OPTIONS, 'segment-size': { type: 'string' } },
  },
  async ({ values, positionals }, ctx) => {
    const command = 'encrypt-file';
    const ttag = ttagOf(values, command);
    if (ttag === undefined) throw new UsageError(`${command}: --key TTAG is required`);
    const segmentSize = segmentSizeOf(values);
    const options = { ...(segmentSize === undefined ? {} : { segmentSize }), ...contextOption(contextOf(values, command)) };
    const keys = session(values, ctx.env);
    await streamFile(ctx, values, command, positionals, () => encryptStream(keys, ttag, options));
  },
);

/** `keygate decrypt-file`. */
export const decryptFileCommand = defineCommand(
  { name: 'decrypt-file', summary: 'decrypt a file (or stdin) encrypt-file wrote', usage: DECRYPT_FILE_USAGE, options: FILE_OPTIONS },
  async ({ values, positionals }, ctx) => {
    const command = 'decrypt-file';
    const ttag = ttagOf(values, command);
    const options = { ...(ttag === undefined ? {} : { ttag }), ...contextOption(contextOf(values, command)) };
    const keys = session(values, ctx.env);
    await streamFile(ctx, values, command, positionals, () => decryptStream(keys, options));
  },
);

/**
 * IN through `transform` into OUT. The files are opened before `transform` is made (making it asks the
 * gateway for the data key when encrypting), and OUT is moved into place only after the stream ended
 * without an error. A stream's error becomes one line naming its code (docs/spec.md §4.5a, Streams
 * item 5); a refusal by the gateway is reported as every command reports one.
 */
async function streamFile(
  ctx: CommandContext,
  values: Values,
  command: string,
  positionals: readonly string[],
  transform: () => TransformStream<Uint8Array, Uint8Array>,
): Promise<void> {
  const [input, output, extra] = positionals;
  if (input === undefined || output === undefined || extra !== undefined)
    throw new UsageError(`${command}: IN and OUT are required, and nothing else`);
  const source = inputStream(input, command);
  const sink = await stagedOutput(output, values.force === true, command).catch(async (error: unknown) => {
    await source.cancel();
    throw error;
  });
  try {
    await source.pipeThrough(transform()).pipeTo(sink.stream);
    await sink.commit();
  } catch (error) {
    throw failure(error, command, input, output);
  } finally {
    await sink.discard();
  }
  if (output !== '-')
    print(ctx, values.json, { file: output, bytes: sink.written() }, () => `wrote ${sink.written()} bytes to ${output}\n`);
}

function failure(error: unknown, command: string, input: string, output: string): unknown {
  const nothing = output === '-' ? 'what was written to standard output is incomplete' : `nothing was written to ${output}`;
  if (error instanceof StreamError) return new CommandFailure(`${command}: ${error.code}: ${error.message}; ${nothing}`);
  if (error instanceof CommandFailure || error instanceof KeygateApiError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string')
    return new CommandFailure(`${command}: cannot read ${input === '-' ? 'standard input' : input} (${code}); ${nothing}`);
  return error;
}

/** --key as a ttag: the stream's header holds the ttag's bytes (16 to 256), so an alias cannot stand for it. */
function ttagOf(values: Values, command: string): string | undefined {
  const ttag = text(values, 'key');
  if (ttag === undefined) return undefined;
  if (ttag.startsWith('alias/'))
    throw new UsageError(`${command}: --key takes the key's ttag, not an alias (the stream's header names the key)`);
  let length = 0;
  try {
    length = fromBase64(ttag).length;
  } catch {
    // refused below
  }
  if (length < 16 || length > 256) throw new UsageError(`${command}: --key is a ttag, base64 of 16 to 256 bytes`);
  return ttag;
}

function segmentSizeOf(values: Values): number | undefined {
  const given = text(values, 'segment-size');
  if (given === undefined) return undefined;
  const size = /^[0-9]{1,8}$/.test(given) ? Number(given) : Number.NaN;
  if (!(size >= SEGMENT_SIZE.min && size <= SEGMENT_SIZE.max))
    throw new UsageError(`encrypt-file: --segment-size is a whole number from ${SEGMENT_SIZE.min} to ${SEGMENT_SIZE.max}`);
  return size;
}
