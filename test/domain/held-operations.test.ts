import test from 'ava';
import { requireHeld } from '../../src/domain/roles/held-operations.js';

test('an operation the roles carry passes for an unscoped token', (t) => {
  t.notThrows(() => requireHeld({ operations: ['keys.read', 'audit.read'], scoped: false }, 'audit.read'));
});

test('an operation the roles do not carry is ROLE_DENIED, scoped or not', (t) => {
  t.throws(() => requireHeld({ operations: ['keys.read'], scoped: false }, 'audit.read'), { code: 'ROLE_DENIED' } as never);
  t.throws(() => requireHeld({ operations: ['keys.read'], scoped: true }, 'audit.read'), { code: 'ROLE_DENIED' } as never);
});

test('a scoped token holding the operation is OUT_OF_SCOPE: the role is checked first, then the scope', (t) => {
  t.throws(() => requireHeld({ operations: ['audit.read'], scoped: true }, 'audit.read'), { code: 'OUT_OF_SCOPE' } as never);
});
