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
