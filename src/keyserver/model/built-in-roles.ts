import { OPERATIONS, type Operation, operationsHeldBy } from '../../wire/operations.js';

const USER = operationsHeldBy('user');

/**
 * The built-in roles (docs/spec.md §4.3 item 3): `admin` holds every operation;
 * `service` is `user` plus `session.delegate`; `auditor` reads the audit log, principals, roles and
 * the server. Which role holds an operation is declared beside the operation (src/wire/operations.ts).
 */
export const BUILT_IN_ROLES: Readonly<Record<'admin' | 'user' | 'service' | 'auditor', readonly Operation[]>> = {
  admin: OPERATIONS,
  user: USER,
  service: [...USER, ...operationsHeldBy('service')],
  auditor: operationsHeldBy('auditor'),
};

/** The union of the operations of the given roles (unknown role names carry nothing). */
export function operationsOf(roles: readonly string[], definitions: Readonly<Record<string, readonly Operation[]>>): Set<Operation> {
  const held = new Set<Operation>();
  for (const role of roles) for (const operation of definitions[role] ?? []) held.add(operation);
  return held;
}
