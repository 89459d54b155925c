import { CONTEXT_MEMBERS_MAX, contextFault, type EncryptionContext } from '../../wire/encryption-context.js';
import { UsageError } from './command.js';

/** `--context NAME=VALUE`, repeated: the members of an encryption context (docs/spec.md §4.5b). */
export const CONTEXT_OPTION = { context: { type: 'string', multiple: true } } as const;

export const CONTEXT_USAGE = `  --context NAME=VALUE  a member of the encryption context (docs/spec.md §4.5b item 1), repeated for
                        each, at most ${CONTEXT_MEMBERS_MAX}, split at the first "=" (so a NAME cannot hold
                        one here); the same context is needed to open what it was bound to. Not
                        secret: the audit records it`;

/**
 * The context the `--context` flags give, checked by the rules every part of keygate applies
 * (src/wire/encryption-context.ts), so that a bad member is a usage error before the gateway is
 * asked; undefined when none is given. A name given twice is refused rather than one of them kept.
 */
export function contextOf(values: Readonly<Record<string, unknown>>, command: string): EncryptionContext | undefined {
  const given = values.context;
  if (!Array.isArray(given) || given.length === 0) return undefined;
  const context: Record<string, string> = {};
  for (const pair of given as string[]) {
    const split = pair.indexOf('=');
    if (split < 1) throw new UsageError(`${command}: --context is NAME=VALUE (got ${JSON.stringify(pair.slice(0, 40))})`);
    const name = pair.slice(0, split);
    if (Object.hasOwn(context, name)) throw new UsageError(`${command}: --context ${JSON.stringify(name)} is given twice`);
    context[name] = pair.slice(split + 1);
  }
  const fault = contextFault(context);
  if (fault !== undefined) {
    const member = fault.member === '' ? '' : ` ${JSON.stringify(fault.member)}`;
    throw new UsageError(`${command}: --context${member}: ${fault.fault}`);
  }
  return context;
}

/** The context as keygate/client's option (generateDataKey, openDataKey, encryptStream, decryptStream): none when not given. */
export function contextOption(context: EncryptionContext | undefined): { readonly context?: EncryptionContext } {
  return context === undefined ? {} : { context };
}
