import type { PrincipalView } from '../../client/keygate-admin.js';
import { admin, COMMON_USAGE, defineCommand, print, readSecretFile, table, text, UsageError } from './command.js';

const principalRows = (items: readonly PrincipalView[]) =>
  table([['NAME', 'KIND', 'ROLES'], ...items.map((p) => [p.name, p.kind, p.roles.join(',')])]);

const PRINCIPALS_USAGE = `Usage: keygate principals <list|show|create|groups> [args] [options]
  list [--limit N] [--cursor C]       principals by name, a page at a time
  show NAME                           one principal
  create NAME --kind user|group|service [--password-file FILE] [--roles a,b] [--display-name TEXT]
  groups NAME                         the groups NAME belongs to
${COMMON_USAGE}
`;

const PRINCIPALS_OPTIONS = {
  limit: { type: 'string' },
  cursor: { type: 'string' },
  kind: { type: 'string' },
  'password-file': { type: 'string' },
  roles: { type: 'string' },
  'display-name': { type: 'string' },
} as const;

export const principalsCommand = defineCommand(
  { name: 'principals', summary: 'list, show and create principals', usage: PRINCIPALS_USAGE, options: PRINCIPALS_OPTIONS },
  async ({ values, positionals }, ctx) => {
    const [sub = 'list', name] = positionals;
    const api = () => admin(values, ctx.env);
    if (sub === 'list') {
      const limit = text(values, 'limit');
      const page = await api().listPrincipals({
        ...(limit ? { limit: Number(limit) } : {}),
        ...(text(values, 'cursor') ? { cursor: text(values, 'cursor')! } : {}),
      });
      return print(ctx, values.json, page, () => principalRows(page.items) + (page.next ? `next: --cursor ${page.next}\n` : ''));
    }
    if (name === undefined) throw new UsageError(`principals ${sub}: NAME is required`);
    if (sub === 'show') {
      const principal = await api().readPrincipal(name);
      return print(ctx, values.json, principal, () => principalRows([principal]));
    }
    if (sub === 'groups') {
      const groups = await api().principalGroups(name);
      return print(ctx, values.json, groups, () => principalRows(groups.items));
    }
    if (sub === 'create') {
      const kind = text(values, 'kind');
      if (kind !== 'user' && kind !== 'group' && kind !== 'service')
        throw new UsageError('principals create: --kind user|group|service is required');
      const passwordFile = text(values, 'password-file');
      const roles = text(values, 'roles');
      const created = await api().createPrincipal({
        name,
        kind,
        ...(passwordFile ? { password: readSecretFile(passwordFile, '--password-file') } : {}),
        ...(roles ? { roles: roles.split(',').map((role) => role.trim()) } : {}),
        ...(text(values, 'display-name') ? { displayName: text(values, 'display-name')! } : {}),
      });
      return print(ctx, values.json, created, () => principalRows([created]));
    }
    throw new UsageError(`principals: unknown subcommand "${sub}"`);
  },
);

const GROUPS_USAGE = `Usage: keygate groups <list|members|add|remove> [GROUP] [MEMBER] [options]
  list [--limit N] [--cursor C]   groups by name, a page at a time
  members GROUP          the members of GROUP
  add GROUP MEMBER       adds MEMBER to GROUP
  remove GROUP MEMBER    removes MEMBER from GROUP
${COMMON_USAGE}
`;

export const groupsCommand = defineCommand(
  {
    name: 'groups',
    summary: 'groups and their members: list, members, add, remove',
    usage: GROUPS_USAGE,
    options: { limit: { type: 'string' }, cursor: { type: 'string' } },
  },
  async ({ values, positionals }, ctx) => {
    const [sub = 'list', group, member] = positionals;
    if (sub === 'list') {
      const limit = text(values, 'limit');
      const page = await admin(values, ctx.env).listGroups({
        ...(limit ? { limit: Number(limit) } : {}),
        ...(text(values, 'cursor') ? { cursor: text(values, 'cursor')! } : {}),
      });
      return print(ctx, values.json, page, () => principalRows(page.items) + (page.next ? `next: --cursor ${page.next}\n` : ''));
    }
    if (group === undefined) throw new UsageError('groups: GROUP is required');
    const api = admin(values, ctx.env);
    if (sub === 'members') {
      const members = await api.groupMembers(group);
      return print(ctx, values.json, members, () => principalRows(members.items));
    }
    if (sub !== 'add' && sub !== 'remove') throw new UsageError(`groups: unknown subcommand "${sub ?? ''}"`);
    if (member === undefined) throw new UsageError(`groups ${sub}: MEMBER is required`);
    const answer = sub === 'add' ? await api.addGroupMember(group, member) : await api.removeGroupMember(group, member);
    print(
      ctx,
      values.json,
      answer ?? { group, member, [sub === 'add' ? 'added' : 'removed']: true },
      () => `${sub === 'add' ? 'added' : 'removed'} ${member} ${sub === 'add' ? 'to' : 'from'} ${group}\n`,
    );
  },
);

const ROLES_USAGE = `Usage: keygate roles <list|show> [ROLE] [options]
  list         every role and its operations
  show ROLE    one role
${COMMON_USAGE}
`;

export const rolesCommand = defineCommand(
  { name: 'roles', summary: 'roles and their operations', usage: ROLES_USAGE },
  async ({ values, positionals }, ctx) => {
    const [sub = 'list', name] = positionals;
    const api = admin(values, ctx.env);
    if (sub === 'list') {
      const roles = await api.listRoles();
      return print(ctx, values.json, roles, () =>
        table([['ROLE', 'OPERATIONS'], ...roles.items.map((r) => [r.name, r.operations.join(',')])]),
      );
    }
    if (sub !== 'show') throw new UsageError(`roles: unknown subcommand "${sub}"`);
    if (name === undefined) throw new UsageError('roles show: ROLE is required');
    const role = await api.readRole(name);
    print(ctx, values.json, role, () => `${role.name}: ${role.operations.join(', ')}\n`);
  },
);
