import type { KeyListQuery, KeySummary } from '../../client/api-types.js';
import type { KeygateSession } from '../../client/keygate-session.js';
import { type CommandContext, print, table, UsageError } from './command.js';

/** A string option's value, if given. */
const text = (values: Record<string, unknown>, flag: string) => (typeof values[flag] === 'string' ? (values[flag] as string) : undefined);

/** The usage lines of `keygate keys list|tag|untag` (docs/spec.md §4.23 items 1, 2). */
export const KEY_INVENTORY_USAGE = `  list [--q PREFIX] [--tag NAME[:VALUE]]... [--state S] [--owner NAME] [--limit N] [--cursor C]
                                            the keys the session may use, newest first, one page
  tag TTAG NAME VALUE                       sets one of the key's tags (owner or right tag)
  untag TTAG NAME                           deletes one of the key's tags`;

/** The options `keys list` adds to the keys command. */
export const KEY_LIST_OPTIONS = {
  q: { type: 'string' },
  tag: { type: 'string', multiple: true },
  state: { type: 'string' },
  owner: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
} as const;

const summaryRows = (keys: readonly KeySummary[]) =>
  table([
    ['TTAG', 'STATE', 'OWNER', 'CREATED', 'LABEL', 'TAGS'],
    ...keys.map((key) => [
      key.ttag,
      key.state,
      key.owner.user,
      key.createdAt,
      key.label ?? '',
      Object.entries(key.tags)
        .map(([name, value]) => `${name}:${value}`)
        .join(','),
    ]),
  ]);

/** One page of GET /api/keys; the cursor of the next page, when there is one, follows the table. */
export async function listKeys(ctx: CommandContext, values: Record<string, unknown>, keys: KeygateSession): Promise<void> {
  const limit = text(values, 'limit');
  if (limit !== undefined && !/^[1-9][0-9]{0,3}$/.test(limit)) throw new UsageError('keys list: --limit is a whole number from 1 to 1000');
  const tags = values.tag;
  const query: KeyListQuery = {
    ...Object.fromEntries(
      (['q', 'state', 'owner', 'cursor'] as const).flatMap((flag) =>
        text(values, flag) === undefined ? [] : [[flag, text(values, flag)]],
      ),
    ),
    ...(Array.isArray(tags) && tags.length > 0 ? { tag: tags as string[] } : {}),
    ...(limit === undefined ? {} : { limit: Number(limit) }),
  };
  const page = await keys.listKeys(query);
  print(ctx, values.json === true, page, () => `${summaryRows(page.items)}${page.next === undefined ? '' : `next: ${page.next}\n`}`);
}

/** `keys tag TTAG NAME VALUE` and `keys untag TTAG NAME`. */
export async function changeTag(
  ctx: CommandContext,
  values: Record<string, unknown>,
  keys: KeygateSession,
  args: { sub: 'tag' | 'untag'; ttag: string; name: string | undefined; value: string | undefined },
): Promise<void> {
  const { sub, ttag, name, value } = args;
  if (name === undefined || (sub === 'tag' && value === undefined))
    throw new UsageError(sub === 'tag' ? 'keys tag: TTAG NAME VALUE are required' : 'keys untag: TTAG NAME are required');
  if (sub === 'tag') {
    const tag = await keys.tagKey(ttag, name, value!);
    return print(ctx, values.json === true, tag, () => `${tag.name}: ${tag.value}\n`);
  }
  await keys.untagKey(ttag, name);
  print(ctx, values.json === true, { ttag, name, deleted: true }, () => `deleted tag ${name}\n`);
}
