import { parseSenderKey } from '../crypto/sender-key.js';
import { srpCreateVerifier } from '../crypto/srp/srp-verifier.js';
import { RoleDeniedError } from '../domain/acl/acl.errors.js';
import { BadRequestError, isKeygateError, NotSavedError } from '../domain/errors/index.js';
import type { Secret } from '../domain/secret/secret.js';
import type { KeyServer, KeyServerLogin } from '../ports/key-server.port.js';
import type { Random } from '../ports/random.port.js';
import type { SessionStore } from '../ports/session-store.port.js';
import type { NewPrincipal, PasswordVerifier, PrincipalChanges, PrincipalView } from '../wire/principal.js';
import { readBack, verifyWrite } from './read-back.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** Operation 22 as asked: the password stays here and only its SRP verifier goes to the key server. */
export type PrincipalRequest = Omit<NewPrincipal, 'verifier'> & { readonly password?: Secret | undefined };

/** Proves a password as a login does, throttled as one (`SessionUseCases.provePassword`). */
export interface PasswordProver {
  provePassword(user: string, password: Secret, clientAddress: string): Promise<KeyServerLogin>;
}

/** Principals (docs/spec.md §4.8); writes are verified by reading back. */
export class PrincipalUseCases {
  readonly #keyServer: KeyServer;
  readonly #random: Random;
  readonly #sessions: SessionStore;
  readonly #passwords: PasswordProver;

  constructor(deps: { keyServer: KeyServer; random: Random; sessions: SessionStore; passwords: PasswordProver }) {
    this.#keyServer = deps.keyServer;
    this.#random = deps.random;
    this.#sessions = deps.sessions;
    this.#passwords = deps.passwords;
  }

  create(caller: Caller, request: PrincipalRequest): Promise<PrincipalView> {
    const { password, ...fields } = request;
    const verifier = password === undefined ? undefined : this.#verifier(request.name, password);
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.call('createPrincipal', {
        name: fields.name,
        kind: fields.kind,
        displayName: fields.displayName,
        roles: fields.roles,
        verifier: verifier && { salt: verifier.salt, verifier: verifier.verifier },
      });
      const after = await readBack(() => connection.call('readPrincipal', { name: request.name }));
      const asked = { kind: fields.kind, displayName: fields.displayName, roles: fields.roles };
      const project = (p: PrincipalView) => ({
        kind: p.kind,
        displayName: p.displayName,
        roles: fields.roles === undefined ? undefined : p.roles,
      });
      return verifyWrite(`principal ${request.name}`, asked, project, after);
    });
  }

  /** Only the fields given change; the read-back must show them. */
  update(caller: Caller, name: string, changes: PrincipalChanges): Promise<PrincipalView> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      const before = await connection.call('readPrincipal', { name });
      const { displayName, disabled, roles, delegates } = changes;
      await connection.call('updatePrincipal', { name, changes: { displayName, disabled, roles, delegates } });
      const after = await readBack(() => connection.call('readPrincipal', { name }));
      const project = (p: PrincipalView) => ({
        displayName: changes.displayName === undefined ? undefined : p.displayName,
        disabled: changes.disabled === undefined ? undefined : p.disabled,
        roles: changes.roles === undefined ? undefined : p.roles,
        delegates: changes.delegates === undefined ? undefined : p.delegates,
      });
      const asked = { ...changes, roles: dedupe(changes.roles), delegates: dedupe(changes.delegates) };
      return verifyWrite(`principal ${name}`, asked, project, after, before);
    });
  }

  /** The principal must be gone on read-back. */
  remove(caller: Caller, name: string): Promise<void> {
    return withConnection(this.#keyServer, caller, async (connection) => {
      await connection.call('deletePrincipal', { name });
      if ((await readBack(() => connection.call('readPrincipal', { name }))) !== undefined)
        throw new NotSavedError(`principal ${name} is still there`);
    });
  }

  /**
   * Operation 26 (not read back: a verifier is never shown). An own change proves `currentPassword`
   * by an SRP login (the password stays here) from `clientAddress`, throttled as a login is: a wrong
   * one counts as a failed login of the name from that address, and while that address must wait the
   * answer is RATE_LIMITED. Wrong or missing is ROLE_DENIED. Every other session of the principal
   * ends, here and at the key server (docs/spec.md §4.20 item 3), and so does every session it delegated (a
   * service): those stand on its credentials.
   */
  async setPassword(
    caller: Caller,
    name: string,
    password: Secret,
    currentPassword: Secret | undefined,
    clientAddress: string,
  ): Promise<void> {
    const own = caller.session.identity.user === name;
    const proof = own ? await this.#proveCurrent(name, currentPassword, clientAddress) : undefined;
    const verifier = this.#verifier(name, password);
    const principalId = await withConnection(this.#keyServer, caller, async (connection) => {
      const target = own ? caller.session.identity.principalId : (await connection.call('readPrincipal', { name })).principalId;
      await connection.call('setPassword', { name, verifier: { salt: verifier.salt, verifier: verifier.verifier }, currentProof: proof });
      return target;
    });
    await this.#sessions.deleteByPrincipal(principalId, caller.key);
    await this.#sessions.deleteActingFor(name);
  }

  /** A fresh SRP login with the current password: its token is the proof the key server consumes. */
  async #proveCurrent(name: string, currentPassword: Secret | undefined, clientAddress: string): Promise<Secret> {
    if (currentPassword === undefined) throw new RoleDeniedError('currentPassword: required to change your own password');
    try {
      return (await this.#passwords.provePassword(name, currentPassword, clientAddress)).token;
    } catch (error) {
      if (isKeygateError(error) && error.code === 'WRONG_CREDENTIAL')
        throw new RoleDeniedError('currentPassword: not the current password');
      throw error;
    }
  }

  /**
   * Operation 28: the read-back must show the thumbprint of the key sent. Every session the principal
   * delegated (a service) ends: each is bound to the key being replaced.
   */
  async putSenderKey(caller: Caller, name: string, jwk: unknown): Promise<{ jkt: string }> {
    const asked = parseSenderKey(jwk, { allowRsa: true, field: 'jwk' }, BadRequestError).jkt;
    const written = await withConnection(this.#keyServer, caller, async (connection) => {
      const before = await connection.call('readPrincipal', { name });
      await connection.call('putSenderKey', { principal: name, jwk: jwk as Record<string, unknown> });
      const after = await readBack(() => connection.call('readPrincipal', { name }));
      verifyWrite(`sender key of ${name}`, asked, (p: PrincipalView) => p.jkt, after, before);
      return { jkt: asked };
    });
    await this.#sessions.deleteActingFor(name);
    return written;
  }

  #verifier(name: string, password: Secret): PasswordVerifier {
    const record = srpCreateVerifier(name, password.reveal(), this.#random);
    return { salt: record.salt.toString('base64'), verifier: record.verifier.toString('base64') };
  }
}

function dedupe(values: readonly string[] | undefined): string[] | undefined {
  return values === undefined ? undefined : [...new Set(values)];
}
