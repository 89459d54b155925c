import { OPERATIONS, type Operation } from '../../wire/operations.js';

const USER: readonly Operation[] = [
  'session.read',
  'sessions.list',
  'session.scope',
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
  'certificates.read',
  'certificates.parse',
  'certificates.verify',
  'principals.read.own',
  'principals.password.own',
  'principals.sender-key.own',
  'server.version',
];

/**
 * The built-in roles (docs/spec.md §4.3 item 3): `admin` holds every operation;
 * `service` is `user` plus `session.delegate`; `auditor` reads the audit log, principals, roles and
 * the server.
 */
export const BUILT_IN_ROLES: Readonly<Record<'admin' | 'user' | 'service' | 'auditor', readonly Operation[]>> = {
  admin: OPERATIONS,
  user: USER,
  service: [...USER, 'session.delegate'],
  auditor: [
    'session.read',
    'sessions.list',
    'audit.read',
    'principals.list',
    'principals.read',
    'principals.read.own',
    'principals.groups',
    'roles.read',
    'server.version',
    'server.config',
    'server.parameters.read',
  ],
};

/** The union of the operations of the given roles (unknown role names carry nothing). */
export function operationsOf(roles: readonly string[], definitions: Readonly<Record<string, readonly Operation[]>>): Set<Operation> {
  const held = new Set<Operation>();
  for (const role of roles) for (const operation of definitions[role] ?? []) held.add(operation);
  return held;
}
