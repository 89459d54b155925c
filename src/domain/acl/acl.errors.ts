import { KeygateError } from '../errors/keygate-error.js';

/** The key's ACL does not give the caller the right it needs. */
export class AclDeniedError extends KeygateError {
  override name = 'AclDeniedError';

  constructor(detail: string) {
    super('ACL_DENIED', detail);
  }
}

/** The caller's roles do not carry the operation. */
export class RoleDeniedError extends KeygateError {
  override name = 'RoleDeniedError';

  constructor(detail: string) {
    super('ROLE_DENIED', detail);
  }
}

/** A scoped session reaching past its object list or rights. */
export class OutOfScopeError extends KeygateError {
  override name = 'OutOfScopeError';

  constructor(detail = 'the session is scoped to other keys or rights') {
    super('OUT_OF_SCOPE', detail);
  }
}
