import { KeygateError } from '../errors/keygate-error.js';

/** The key's ACL does not give the caller the right it needs. */
export class AclDeniedError extends KeygateError {
  constructor(detail: string) {
    super('ACL_DENIED', detail);
  }
}

/** The caller's roles do not carry the operation. */
export class RoleDeniedError extends KeygateError {
  constructor(detail: string) {
    super('ROLE_DENIED', detail);
  }
}

/** A scoped session reaching past its object list or rights. */
export class OutOfScopeError extends KeygateError {
  constructor(detail = 'the session is scoped to other keys or rights') {
    super('OUT_OF_SCOPE', detail);
  }
}
