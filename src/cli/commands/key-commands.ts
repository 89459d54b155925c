import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AclView, GrantConditions, KeyLength, KeyVersionView, KeyView, Right } from '../../client/api-types.js';
import type { KeygateSession } from '../../client/keygate-session.js';
import { COMMON_USAGE, CommandFailure, defineCommand, type OperatorCommand, print, session, table, text, UsageError } from './command.js';
import { changeTag, KEY_INVENTORY_USAGE, KEY_LIST_OPTIONS, listKeys } from './key-inventory-commands.js';
import { KEY_SIGNING_OPTIONS, KEY_SIGNING_USAGE, signingKeyFields, signingKeySub } from './signing-commands.js';

const KEYS_USAGE = `Usage: keygate keys <list|create|show|tag|untag|expire|disable|enable|schedule-deletion|cancel-deletion|export|rotate|versions|min-version|acl|grant|revoke|public-key|jwks|publish> [args] [options]
${KEY_INVENTORY_USAGE}
  create [--len 16|24|32] [--label TEXT] [--rotation-period P90D] [--idempotency-key KEY]
                                            a new key owned by the session's principal; prints its ttag
${KEY_SIGNING_USAGE}
  show TTAG                                 the key's view (never its material)
  expire TTAG                               expires the key for good (owner only)
  disable TTAG                              the key refuses export and cryptography until enabled (owner only)
  enable TTAG                               a disabled key is active again, the same key (owner only)
  schedule-deletion TTAG [--days N]         the key refuses its material, and is destroyed N days on (owner
                                            only; the key server's maximum, 30 by default, when not given)
  cancel-deletion TTAG                      ends the wait: the key comes back disabled (owner only)
  export TTAG --out FILE [--force] [--version N]
                                            the raw key (the newest version by default), unwrapped here,
                                            written to FILE (mode 0600); a signing key's PKCS#8 (DER)
  rotate TTAG [--idempotency-key KEY]       adds the key's next version (owner or right rotate)
  versions TTAG                             every version of the key and its state, oldest first
  min-version TTAG N                        retires the versions below N (owner; it never goes down)
  acl TTAG                                  the key's access list (owner only)
  grant TTAG PRINCIPAL RIGHTS [--condition NAME=VALUE]...
                                            sets PRINCIPAL's rights, comma-separated (read,export,...);
                                            each --condition adds a member the request's encryption
                                            context must hold (docs/spec.md §4.5b item 4); none: unconditioned
  revoke TTAG PRINCIPAL                     removes PRINCIPAL's entry
${COMMON_USAGE}
`;

const keyText = (key: KeyView) =>
  `${key.ttag}  ${key.keyLen === undefined ? `${key.type} ${key.alg}` : `${key.keyLen * 8}-bit`}  ${key.state}${key.label ? `  ${key.label}` : ''}  version ${key.version} (min ${key.minVersion})${
    key.deletionAt && !key.deletedAt ? `  deleted at ${key.deletionAt}` : ''
  }\n`;
const versionsText = (versions: readonly KeyVersionView[]) =>
  table([['VERSION', 'STATE', 'CREATED'], ...versions.map((v) => [String(v.version), v.state, v.createdAt])]);

/** Every version of the key, oldest first, read page after page (docs/spec.md §4.22 item 10; pages come newest first). */
async function allVersions(keys: KeygateSession, ttag: string): Promise<KeyVersionView[]> {
  const versions: KeyVersionView[] = [];
  let cursor: string | undefined;
  do {
    const page = await keys.keyVersions(ttag, { limit: 1000, ...(cursor === undefined ? {} : { cursor }) });
    versions.push(...page.items);
    cursor = page.next;
  } while (cursor !== undefined);
  return versions.reverse();
}

/** A version number from the command line: a whole number from 1. */
function versionArg(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(value)) throw new UsageError(`keys ${what}: the version is a whole number from 1`);
  return Number(value);
}
const conditionText = (conditions: GrantConditions | undefined) =>
  conditions === undefined
    ? ''
    : ` when ${Object.entries(conditions.context)
        .map(([name, value]) => `${name}=${value}`)
        .join(',')}`;
const aclText = (acl: AclView) =>
  table([
    ['PRINCIPAL', 'RIGHTS'],
    [`${acl.owner.user} (owner)`, '*'],
    ...acl.items.map((e) => [e.principal, `${e.rights.join(',')}${conditionText(e.conditions)}`]),
  ]);

/**
 * `--condition NAME=VALUE`, repeatable: the members of a grant's context condition
 * (docs/spec.md §4.5b item 4), split at the first `=`, so a value may hold `=` (base64 does) and a name given here
 * cannot. The gateway checks the names and values and names what it refuses.
 */
function conditionsOf(given: readonly string[] | undefined): GrantConditions | undefined {
  if (given === undefined || given.length === 0) return undefined;
  const context: Record<string, string> = {};
  for (const member of given) {
    const at = member.indexOf('=');
    if (at < 1) throw new UsageError(`keys grant: --condition takes NAME=VALUE, not "${member}"`);
    const name = member.slice(0, at);
    if (Object.hasOwn(context, name)) throw new UsageError(`keys grant: --condition ${name} is given twice`);
    Object.defineProperty(context, name, { value: member.slice(at + 1), enumerable: true, writable: true, configurable: true });
  }
  return { context };
}

const KEYS_OPTIONS = {
  len: { type: 'string' },
  label: { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean', default: false },
  version: { type: 'string' },
  days: { type: 'string' },
  'rotation-period': { type: 'string' },
  'idempotency-key': { type: 'string' },
  condition: { type: 'string', multiple: true },
  ...KEY_LIST_OPTIONS,
  ...KEY_SIGNING_OPTIONS,
} as const;

export const keysCommand = defineCommand(
  { name: 'keys', summary: 'list, create, show, tag, export keys and manage their ACL', usage: KEYS_USAGE, options: KEYS_OPTIONS },
  async ({ values, positionals }, ctx) => {
    const [sub, ttag, principal, rights] = positionals;
    const keys = () => session(values, ctx.env);
    if (sub === 'create') {
      const len = text(values, 'len');
      if (len !== undefined && !['16', '24', '32'].includes(len)) throw new UsageError('keys create: --len is 16, 24 or 32');
      const label = text(values, 'label');
      const rotationPeriod = text(values, 'rotation-period');
      const request = {
        ...signingKeyFields(values),
        ...(len ? { keyLen: Number(len) as KeyLength } : {}),
        ...(label ? { label } : {}),
        ...(rotationPeriod ? { rotationPeriod } : {}),
      };
      const key = await keys().createKey(request, idempotencyOf(values));
      return print(ctx, values.json, key, () => `${key.ttag}\n`);
    }
    if (sub === 'list') return listKeys(ctx, values, keys());
    if (ttag === undefined) throw new UsageError(`keys ${sub ?? ''}: TTAG is required`);
    switch (sub) {
      case 'tag':
      case 'untag':
        return changeTag(ctx, values, keys(), { sub, ttag, name: principal, value: rights });
      case 'show': {
        const key = await keys().readKey(ttag);
        return print(ctx, values.json, key, () => keyText(key));
      }
      case 'expire': {
        const key = await keys().expireKey(ttag);
        return print(ctx, values.json, key, () => keyText(key));
      }
      case 'disable':
      case 'enable': {
        const key = await (sub === 'disable' ? keys().disableKey(ttag) : keys().enableKey(ttag));
        return print(ctx, values.json, key, () => keyText(key));
      }
      case 'schedule-deletion': {
        const days = text(values, 'days');
        if (days !== undefined && !/^[1-9][0-9]{0,2}$/.test(days))
          throw new UsageError('keys schedule-deletion: --days is a whole number from 1');
        const key = await keys().scheduleKeyDeletion(ttag, days === undefined ? {} : { pendingDays: Number(days) });
        return print(ctx, values.json, key, () => keyText(key));
      }
      case 'cancel-deletion': {
        const key = await keys().cancelKeyDeletion(ttag);
        return print(ctx, values.json, key, () => keyText(key));
      }
      case 'export':
        return exportTo(
          ctx,
          values.json,
          ttag,
          text(values, 'out'),
          values.force === true,
          keys(),
          versionArg(text(values, 'version'), 'export'),
        );
      case 'public-key':
      case 'jwks':
      case 'publish':
        return signingKeySub(ctx, values, keys(), sub, ttag, versionArg(text(values, 'version'), sub));
      case 'rotate': {
        const key = await keys().rotateKey(ttag, idempotencyOf(values));
        return print(ctx, values.json, key, () => keyText(key));
      }
      case 'versions': {
        const client = keys();
        const key = await client.readKey(ttag);
        const versions = await allVersions(client, ttag);
        return print(ctx, values.json, { ttag: key.ttag, version: key.version, minVersion: key.minVersion, versions }, () =>
          versionsText(versions),
        );
      }
      case 'min-version': {
        const minVersion = versionArg(principal, 'min-version');
        if (minVersion === undefined) throw new UsageError('keys min-version: TTAG N are required');
        const key = await keys().setMinVersion(ttag, minVersion);
        return print(ctx, values.json, key, () => keyText(key));
      }
      case 'acl': {
        const acl = await keys().readAcl(ttag);
        return print(ctx, values.json, acl, () => aclText(acl));
      }
      case 'grant': {
        if (principal === undefined || rights === undefined) throw new UsageError('keys grant: TTAG PRINCIPAL RIGHTS are required');
        const conditions = conditionsOf(Array.isArray(values.condition) ? (values.condition as string[]) : undefined);
        const entry = await keys().setAclEntry(ttag, principal, rights.split(',').map((right) => right.trim()) as Right[], conditions);
        return print(ctx, values.json, entry, () => `${entry.principal}: ${entry.rights.join(',')}${conditionText(entry.conditions)}\n`);
      }
      case 'revoke': {
        if (principal === undefined) throw new UsageError('keys revoke: TTAG PRINCIPAL are required');
        await keys().removeAclEntry(ttag, principal);
        return print(ctx, values.json, { ttag, principal, revoked: true }, () => `revoked ${principal}\n`);
      }
      default:
        throw new UsageError(`keys: unknown subcommand "${sub ?? ''}"`);
    }
  },
);

function idempotencyOf(values: Record<string, unknown>): { idempotencyKey?: string } {
  const key = values['idempotency-key'];
  return typeof key === 'string' ? { idempotencyKey: key } : {};
}

/**
 * The key goes to the file only, never to stdout. The output is checked before the gateway is asked:
 * an existing file without --force, or a folder that cannot take a new file, refuses with nothing
 * exported (an export is an audited release of the key). The key is written to a new 0600 file beside
 * the target and moved into place, so the target is never a partly written or wider-moded file.
 */
async function exportTo(
  ctx: Parameters<OperatorCommand['run']>[1],
  json: boolean,
  ttag: string,
  out: string | undefined,
  force: boolean,
  keys: ReturnType<typeof session>,
  version: number | undefined,
): Promise<void> {
  if (out === undefined) throw new UsageError('keys export: --out FILE is required (the key is never printed)');
  if (!force && existsSync(out)) throw new UsageError(`keys export: ${out} exists (--force replaces it)`);
  const staging = stagingFile(out);
  try {
    const exported = await keys.exportAnyKey(ttag, version === undefined ? {} : { version });
    writeAll(staging.fd, exported.key);
    closeStaging(staging);
    moveIntoPlace(staging.path, out, force);
    const { key: _key, ...labels } = exported;
    const what =
      'format' in exported ? `the ${exported.type} private key (PKCS#8 DER, ${exported.key.length} bytes)` : `${exported.keyLen} bytes`;
    print(ctx, json, { ttag, file: out, ...labels }, () => `wrote ${what} of version ${exported.version} to ${out}\n`);
  } finally {
    closeStaging(staging);
    removeQuietly(staging.path);
  }
}

interface Staging {
  readonly path: string;
  fd: number | undefined;
}

/** A new, empty 0600 file in the target's folder: the folder is known to take the file before the key is asked for. */
function stagingFile(out: string): Staging {
  const path = join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    return { path, fd: openSync(path, 'wx', 0o600) };
  } catch (error) {
    throw new CommandFailure(`keys export: cannot write ${out} (${errno(error)}); nothing was exported`);
  }
}

function writeAll(fd: number | undefined, bytes: Uint8Array): void {
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd!, bytes, offset);
    fsyncSync(fd!);
  } catch (error) {
    throw new CommandFailure(`keys export: writing the key failed (${errno(error)}); the key was exported but not written`);
  }
}

/** Without --force a file that appeared meanwhile is still never replaced: link fails on an existing name. */
function moveIntoPlace(staged: string, out: string, force: boolean): void {
  try {
    if (force) renameSync(staged, out);
    else linkSync(staged, out);
  } catch (error) {
    const code = errno(error);
    if (code === 'EEXIST') throw new CommandFailure(`keys export: ${out} appeared meanwhile; the key was exported but not written`);
    throw new CommandFailure(`keys export: cannot move the key into ${out} (${code}); the key was exported but not written`);
  }
}

function closeStaging(staging: Staging): void {
  if (staging.fd === undefined) return;
  const fd = staging.fd;
  staging.fd = undefined;
  closeSync(fd);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already moved into place, or never made
  }
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';
