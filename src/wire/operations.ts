/**
 * Operation ids: what a role carries (docs/spec.md §4.3 item 2). One id per guarded operation of the
 * /api surface; the seven-operation routes use the same ids as their /api counterparts.
 */
export const OPERATIONS = [
  'session.read',
  'sessions.list',
  'sessions.list.all',
  'session.scope',
  'session.delegate',
  'crypto.encrypt',
  'crypto.decrypt',
  'crypto.mac',
  'keys.create',
  'keys.read',
  'keys.versions',
  'keys.export',
  'keys.expire',
  'keys.rotate',
  'keys.min-version',
  'acl.read',
  'acl.write',
  'acl.access',
  'principals.list',
  'principals.create',
  'principals.read',
  'principals.read.own',
  'principals.update',
  'principals.delete',
  'principals.password',
  'principals.password.own',
  'principals.groups',
  'principals.sender-key',
  'principals.sender-key.own',
  'groups.read',
  'groups.write',
  'roles.read',
  'roles.write',
  'certificates.read',
  'certificates.parse',
  'certificates.verify',
  'trust.read',
  'trust.write',
  'trust.enroll',
  'server.version',
  'server.config',
  'server.parameters.read',
  'server.parameters.write',
  'policy.read',
  'policy.write',
  'audit.read',
] as const;

export type Operation = (typeof OPERATIONS)[number];

export function isOperation(value: string): value is Operation {
  return (OPERATIONS as readonly string[]).includes(value);
}
