import type { ListResult } from '../../wire/list-result.js';
import { ISSUER_NAME, issuerSettings, MAX_ISSUERS, type WorkloadIssuer, workloadIssuer } from '../../wire/workload-issuer.js';
import { BadRequestError, KeyServerError, NotFoundError } from '../model/key-server-errors.js';
import type { EngineContext } from './engine-context.js';
import { roleOperations } from './engine-roles.js';

/** The setting that holds every trusted issuer, one JSON array: no table of its own (docs/spec.md §4.24 item 1). */
const ISSUERS_SETTING = 'workloadIssuers';

type StoreContext = Pick<EngineContext, 'store'>;

/** The last stored value read and what it parsed to: a sign-in reads the issuers each time, they rarely change. */
let lastRead: { readonly stored: string; readonly issuers: readonly WorkloadIssuer[] } | undefined;

/**
 * Every trusted issuer, by name, as stored now (read in the caller's unit of the store). A stored
 * value that no longer reads as an issuer is left out, never trusted. The answer is shared: not to be changed.
 */
export async function readIssuers(ctx: StoreContext): Promise<readonly WorkloadIssuer[]> {
  const stored = await ctx.store.setting(ISSUERS_SETTING);
  if (stored === undefined) return [];
  if (lastRead?.stored === stored) return lastRead.issuers;
  const parsed: unknown = JSON.parse(stored);
  const issuers = (Array.isArray(parsed) ? parsed : []).flatMap((item) => {
    const issuer = workloadIssuer.safeParse(item);
    return issuer.success ? [issuer.data] : [];
  });
  lastRead = { stored, issuers };
  return issuers;
}

async function writeIssuers(ctx: StoreContext, issuers: readonly WorkloadIssuer[]): Promise<void> {
  const sorted = [...issuers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  await ctx.store.putSetting(ISSUERS_SETTING, JSON.stringify(sorted));
}

function checkName(name: string): void {
  if (!ISSUER_NAME.test(name)) throw new BadRequestError('name: not an issuer name');
}

/**
 * Trusted issuers of workload identity tokens (docs/spec.md §4.24 item 1): administrators (`trust.read`,
 * `trust.write`) list, read, write and delete them; each write is one unit of the store.
 */
export class IssuerOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  async list(token: string): Promise<ListResult<WorkloadIssuer>> {
    await this.#ctx.auth.authorizeOperation(token, 'trust.read');
    return { items: await readIssuers(this.#ctx), complete: true };
  }

  async read(token: string, name: string): Promise<WorkloadIssuer> {
    await this.#ctx.auth.authorizeOperation(token, 'trust.read');
    const found = (await readIssuers(this.#ctx)).find((issuer) => issuer.name === name);
    if (found === undefined) throw new NotFoundError(`no issuer ${name}`);
    return found;
  }

  /**
   * Creates or replaces the issuer `name`. Its settings are checked here whatever the transport
   * (BAD_REQUEST naming the field): the roles must exist, no other issuer may hold its `issuer`, and
   * there are at most MAX_ISSUERS.
   */
  async put(token: string, name: string, settings: unknown): Promise<WorkloadIssuer> {
    await this.#ctx.auth.authorizeOperation(token, 'trust.write');
    checkName(name);
    const parsed = issuerSettings.safeParse(settings);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new BadRequestError(`${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    for (const role of parsed.data.roles) {
      if ((await roleOperations(this.#ctx.store, role)) === undefined) throw new BadRequestError(`roles: no role ${role}`);
    }
    const issuer: WorkloadIssuer = { name, ...parsed.data };
    const others = (await readIssuers(this.#ctx)).filter((other) => other.name !== name);
    if (others.some((other) => other.issuer === issuer.issuer))
      throw new BadRequestError(`issuer: another trusted issuer has ${issuer.issuer}`);
    if (others.length >= MAX_ISSUERS)
      throw new KeyServerError('CONFLICT', `at most ${MAX_ISSUERS} trusted issuers`, { reason: 'ISSUER_LIMIT' });
    await writeIssuers(this.#ctx, [...others, issuer]);
    return issuer;
  }

  async remove(token: string, name: string): Promise<void> {
    await this.#ctx.auth.authorizeOperation(token, 'trust.write');
    const issuers = await readIssuers(this.#ctx);
    if (!issuers.some((issuer) => issuer.name === name)) throw new NotFoundError(`no issuer ${name}`);
    await writeIssuers(
      this.#ctx,
      issuers.filter((issuer) => issuer.name !== name),
    );
  }
}
