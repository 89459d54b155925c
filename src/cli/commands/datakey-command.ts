import type { Bytes } from '../../client/base64.js';
import { toBase64 } from '../../client/base64.js';
import { COMMON_USAGE, defineCommand, session, text, UsageError, type Values } from './command.js';
import { CONTEXT_OPTION, CONTEXT_USAGE, contextOf, contextOption } from './context-flag.js';

const DATAKEY_USAGE = `Usage: keygate datakey --key KEY [--key-len 16|24|32] [--context NAME=VALUE]... [--with-key]
       keygate datakey open --key KEY --blob B64 [--context NAME=VALUE]...
  A data key for envelope encryption (docs/spec.md §4.5a), made by the key server and sealed there under
  the newest version of KEY (a ttag or alias/NAME; right encrypt). Prints {"blob", "keyLen", "version"}
  as JSON: keep the blob beside the data the key encrypts; only the key server can open it.
  --key-len N   the data key's length in bytes: 16, 24 or 32 (default 32)
  --with-key    also prints the data key itself as "plaintext" (standard base64), wrapped by the key
                server to a key pair made here for this request and unwrapped here.
                THIS PUTS A KEY ON STDOUT: send it to a file of mode 0600 or a program, never a log.
  open          the data key of --blob (right decrypt), wrapped to a key pair made here and unwrapped
                here; prints {"plaintext", "keyLen", "version"}. THIS PUTS A KEY ON STDOUT, as above.
${CONTEXT_USAGE}
${COMMON_USAGE}
`;

const KEY_LENGTHS = ['16', '24', '32'] as const;

/** `keygate datakey` and `keygate datakey open`: always JSON, the form a script stores or pipes on. */
export const datakeyCommand = defineCommand(
  {
    name: 'datakey',
    summary: 'a data key for envelope encryption (its blob; --with-key the key too), or open a blob',
    usage: DATAKEY_USAGE,
    options: {
      key: { type: 'string' },
      'key-len': { type: 'string' },
      'with-key': { type: 'boolean' },
      blob: { type: 'string' },
      ...CONTEXT_OPTION,
    },
  },
  async ({ values, positionals }, ctx) => {
    const [sub, extra] = positionals;
    if (extra !== undefined || (sub !== undefined && sub !== 'open'))
      throw new UsageError(`datakey: unexpected argument "${extra ?? sub}" (the only subcommand is open)`);
    const command = sub === undefined ? 'datakey' : 'datakey open';
    const key = text(values, 'key');
    if (key === undefined || key === '') throw new UsageError(`${command}: --key KEY is required`);
    const options = contextOption(contextOf(values, command));
    const keys = session(values, ctx.env);
    if (sub === 'open') {
      const blob = blobOf(values);
      const opened = await keys.openDataKey(key, blob, options);
      return ctx.out(json({ plaintext: revealed(opened.key), keyLen: opened.keyLen, version: opened.version }));
    }
    if (values.blob !== undefined) throw new UsageError('datakey: --blob is for datakey open');
    const made = await keys.generateDataKey(key, { keyLen: keyLenOf(values), deliver: values['with-key'] === true, ...options });
    const { blob, keyLen, version } = made;
    ctx.out(json(made.key === undefined ? { blob, keyLen, version } : { blob, keyLen, version, plaintext: revealed(made.key) }));
  },
);

function keyLenOf(values: Values): 16 | 24 | 32 {
  const given = text(values, 'key-len');
  if (given === undefined) return 32;
  if (!(KEY_LENGTHS as readonly string[]).includes(given)) throw new UsageError('datakey: --key-len is 16, 24 or 32');
  return Number(given) as 16 | 24 | 32;
}

function blobOf(values: Values): string {
  if (values['with-key'] !== undefined || values['key-len'] !== undefined)
    throw new UsageError('datakey open: --with-key and --key-len are for a new data key');
  const blob = text(values, 'blob');
  if (blob === undefined || !/^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(blob))
    throw new UsageError('datakey open: --blob B64 is required, in standard base64');
  return blob;
}

/** The key as base64 for the caller, its bytes zeroed once encoded. */
function revealed(key: Bytes): string {
  const encoded = toBase64(key);
  key.fill(0);
  return encoded;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
