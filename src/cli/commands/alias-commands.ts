import type { AliasView } from '../../client/api-types.js';
import { COMMON_USAGE, defineCommand, print, session, table, text, UsageError } from './command.js';

const ALIASES_USAGE = `Usage: keygate aliases <list|set|delete> [args] [options]
  list [--ttag TTAG] [--prefix TEXT]        the aliases of the keys the session would see, by name
  set ALIAS TTAG                            ALIAS names the key TTAG (its owner; a move takes the owner
                                            of the key ALIAS named too); alias/ALIAS then names the key
                                            wherever a ttag is taken
  delete ALIAS                              removes the alias (the owner of the key it names)
${COMMON_USAGE}
`;

const aliasesText = (aliases: readonly AliasView[]) =>
  table([['ALIAS', 'TTAG', 'UPDATED'], ...aliases.map((alias) => [alias.alias, alias.ttag, alias.updatedAt])]);

/** Aliases of keys (docs/spec.md §4.23 item 3). */
export const aliasesCommand = defineCommand(
  {
    name: 'aliases',
    summary: 'name keys by alias: list, set (or move), delete',
    usage: ALIASES_USAGE,
    options: { ttag: { type: 'string' }, prefix: { type: 'string' } },
  },
  async ({ values, positionals }, ctx) => {
    const [sub, alias, ttag] = positionals;
    const client = () => session(values, ctx.env);
    switch (sub) {
      case 'list': {
        const filter = { ...optional('ttag', text(values, 'ttag')), ...optional('prefix', text(values, 'prefix')) };
        const aliases: AliasView[] = [];
        let cursor: string | undefined;
        do {
          const page = await client().listAliases({ ...filter, limit: 1000, ...optional('cursor', cursor) });
          aliases.push(...page.items);
          cursor = page.next;
        } while (cursor !== undefined);
        return print(ctx, values.json, aliases, () => aliasesText(aliases));
      }
      case 'set': {
        if (alias === undefined || ttag === undefined) throw new UsageError('aliases set: ALIAS TTAG are required');
        const set = await client().setAlias(alias, ttag);
        return print(ctx, values.json, set, () => `${set.alias} -> ${set.ttag}\n`);
      }
      case 'delete': {
        if (alias === undefined) throw new UsageError('aliases delete: ALIAS is required');
        await client().deleteAlias(alias);
        return print(ctx, values.json, { alias, deleted: true }, () => `deleted ${alias}\n`);
      }
      default:
        throw new UsageError(`aliases: unknown subcommand "${sub ?? ''}"`);
    }
  },
);

function optional<K extends string>(name: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: string };
}
