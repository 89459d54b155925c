/**
 * Operation ids: what a role carries (docs/spec.md §4.3 item 2). One id per guarded operation of the
 * /api surface; the seven-operation routes use the same ids as their /api counterparts. Each id is
 * declared once, with the built-in roles besides `admin` (which holds every one) that hold it
 * (docs/spec.md §4.3 item 3): `service` holds what `user` holds, and what names it here.
 */
const HOLDERS = {
  'session.read': ['user', 'auditor'],
  'sessions.list': ['user', 'auditor'],
  'sessions.list.all': [],
  'session.scope': ['user'],
  'session.delegate': ['service'],
  'crypto.encrypt': ['user'],
  'crypto.decrypt': ['user'],
  'crypto.mac': ['user'],
  'crypto.sign': ['user'],
  'crypto.verify': ['user'],
  'keys.create': ['user'],
  'keys.read': ['user'],
  'keys.versions': ['user'],
  'keys.export': ['user'],
  'keys.expire': ['user'],
  'keys.state': ['user'],
  'keys.rotate': ['user'],
  'keys.min-version': ['user'],
  'keys.list': ['user'],
  'keys.list.all': [],
  'keys.tag': ['user'],
  'keys.delete': ['user'],
  'keys.public-key': ['user'],
  'keys.publish': ['user'],
  'aliases.read': ['user'],
  'aliases.write': ['user'],
  'acl.read': ['user'],
  'acl.write': ['user'],
  'acl.access': ['user'],
  'principals.list': ['auditor'],
  'principals.create': [],
  'principals.read': ['auditor'],
  'principals.read.own': ['user', 'auditor'],
  'principals.update': [],
  'principals.delete': [],
  'principals.password': [],
  'principals.password.own': ['user'],
  'principals.groups': ['auditor'],
  'principals.sender-key': [],
  'principals.sender-key.own': ['user'],
  'groups.read': [],
  'groups.write': [],
  'roles.read': ['auditor'],
  'roles.write': [],
  'certificates.read': ['user'],
  'certificates.parse': ['user'],
  'certificates.verify': ['user'],
  'trust.read': [],
  'trust.write': [],
  'trust.enroll': [],
  'server.version': ['user', 'auditor'],
  'server.config': ['auditor'],
  'server.parameters.read': ['auditor'],
  'server.parameters.write': [],
  'policy.read': [],
  'policy.write': [],
  'audit.read': ['auditor'],
} as const satisfies Record<string, readonly ('user' | 'service' | 'auditor')[]>;

export type Operation = keyof typeof HOLDERS;

export const OPERATIONS: readonly Operation[] = Object.keys(HOLDERS) as Operation[];

/** The operations the built-in role `holder` is given (besides `admin`'s all). */
export function operationsHeldBy(holder: 'user' | 'service' | 'auditor'): Operation[] {
  return OPERATIONS.filter((operation) => (HOLDERS[operation] as readonly string[]).includes(holder));
}

export function isOperation(value: string): value is Operation {
  return Object.hasOwn(HOLDERS, value);
}
