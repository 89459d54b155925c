import type { ListResult } from '../../wire/list-result.js';
import { isOperation, OPERATIONS } from '../../wire/operations.js';
import { type HeldOperations, ROLE_NAME, type RoleView } from '../../wire/role.js';
import { BadRequestError, NotFoundError } from '../model/key-server-errors.js';
import type { EngineContext } from './engine-context.js';
import { endBrokenDelegations } from './engine-delegation.js';
import { FIXED_ROLE, principalOperations, roleNames, roleOperations } from './engine-roles.js';

/**
 * Roles (docs/spec.md §4.10): named sets of operation ids. The built-in roles are the
 * defaults until redefined; `admin` holds every operation and cannot be redefined.
 */
export class RoleOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * The caller's own operations (its roles and its groups' roles, in catalogue order) and whether its
   * token is scoped. Any token may ask about itself; the gateway decides its own operations (reading
   * the audit log) from this answer.
   */
  async held(token: string): Promise<HeldOperations> {
    const caller = await this.#ctx.auth.authenticate(token);
    const held = await principalOperations(this.#ctx.store, caller.principal);
    return { operations: OPERATIONS.filter((operation) => held.has(operation)), scoped: caller.token.scope !== undefined };
  }

  async list(token: string): Promise<ListResult<RoleView>> {
    await this.#ctx.auth.authorizeOperation(token, 'roles.read');
    const store = this.#ctx.store;
    const items: RoleView[] = [];
    for (const name of await roleNames(store)) items.push({ name, operations: [...((await roleOperations(store, name)) ?? [])] });
    return { items, complete: true };
  }

  async read(token: string, name: string): Promise<RoleView> {
    await this.#ctx.auth.authorizeOperation(token, 'roles.read');
    const operations = await roleOperations(this.#ctx.store, name);
    if (operations === undefined) throw new NotFoundError(`no such role: ${name}`);
    return { name, operations: [...operations] };
  }

  /** Defines or redefines a role; an unknown operation id is BAD_REQUEST. */
  async put(token: string, name: string, operations: readonly string[]): Promise<RoleView> {
    await this.#ctx.auth.authorizeOperation(token, 'roles.write');
    if (!ROLE_NAME.test(name)) throw new BadRequestError(`role: invalid role name ${name}`);
    if (name === FIXED_ROLE) throw new BadRequestError('role: admin holds every operation and cannot be redefined');
    if (!Array.isArray(operations)) throw new BadRequestError('operations: an array of operation ids');
    const unknown = operations.find((operation) => typeof operation !== 'string' || !isOperation(operation));
    if (unknown !== undefined) throw new BadRequestError(`operations: unknown operation id ${String(unknown)}`);
    const canonical = OPERATIONS.filter((operation) => operations.includes(operation));
    await this.#ctx.store.putRole({ name, operations: canonical });
    await endBrokenDelegations(this.#ctx.store);
    return { name, operations: canonical };
  }
}
