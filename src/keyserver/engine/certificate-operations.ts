import { X509Certificate } from 'node:crypto';
import type { CertificateInfo } from '../../wire/certificate.js';
import type { CertificateQuery, CertificateVerdict } from '../../wire/certificate-verdict.js';
import type { ListResult } from '../../wire/list-result.js';
import { NotFoundError } from '../model/key-server-errors.js';
import { buildPath, parseBundle } from './certificate-path.js';
import { certificateId, certificateView, parseCertificate } from './certificates.js';
import type { EngineContext } from './engine-context.js';
import type { CertificateRow } from './engine-model.js';
import { pageOf } from './list-cursor.js';

/** A stored certificate as read: its view, or undefined when its PEM no longer parses. */
type Readable = { readonly row: CertificateRow; readonly view: CertificateInfo | undefined };

/**
 * Certificate objects (docs/spec.md §4.11) and the trusted authorities (§4.12). Parse
 * and verify store nothing. A stored certificate that can no longer be read makes its list
 * incomplete; it is never silently left out.
 */
export class CertificateOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /** Trusted authorities and enrolled leaves, by id, filtered by subject part and principal name. */
  async list(token: string, query: CertificateQuery): Promise<ListResult<CertificateInfo>> {
    await this.#ctx.auth.authorizeOperation(token, 'certificates.read');
    const store = this.#ctx.store;
    const owner = query.principal === undefined ? undefined : ((await store.principalByName(query.principal))?.principalId ?? '');
    const subject = query.subject?.toLowerCase();
    const rows = [...(await store.certificates('authority')), ...(await store.certificates('enrolled'))]
      .filter((row) => owner === undefined || row.principalId === owner)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const matching = (await this.#read(rows)).filter(
      ({ view }) => view === undefined || subject === undefined || view.subject.toLowerCase().includes(subject),
    );
    const page = await pageOf(
      query,
      'certificates',
      (after, count) => matching.filter((c) => after === undefined || c.row.id > after).slice(0, count),
      (c) => c.row.id,
    );
    return withUnreadable(page.items, page.next);
  }

  async read(token: string, id: string): Promise<CertificateInfo> {
    await this.#ctx.auth.authorizeOperation(token, 'certificates.read');
    const row = await this.#ctx.store.certificate(id);
    if (!row) throw new NotFoundError(`no such certificate: ${id}`);
    return certificateView(new X509Certificate(row.pem), await this.#principalName(row));
  }

  /** Operation 37: the certificate's fields, with its principal when it is enrolled; nothing is stored. */
  async parse(token: string, pem: string): Promise<CertificateInfo> {
    await this.#ctx.auth.authorizeOperation(token, 'certificates.parse');
    const cert = parseCertificate(pem, 'pem');
    const row = await this.#ctx.store.certificate(certificateId(cert));
    return certificateView(cert, row === undefined ? undefined : await this.#principalName(row));
  }

  /** Operation 38: does it (a bundle: leaf, then intermediates) chain to a trusted authority now? */
  async verify(token: string, pem: string): Promise<CertificateVerdict> {
    await this.#ctx.auth.authorizeOperation(token, 'certificates.verify');
    const { leaf: cert, intermediates } = parseBundle(pem, 'pem');
    const authorities = (await this.#ctx.store.certificates('authority')).map((row) => new X509Certificate(row.pem));
    const result = await buildPath(cert, intermediates, authorities, this.#ctx.now());
    if (!result.trusted) return { trusted: false, chain: [certificateId(cert)], reason: result.reason };
    return { trusted: true, chain: [...new Set(result.chain)] };
  }

  async authorities(token: string): Promise<ListResult<CertificateInfo>> {
    await this.#ctx.auth.authorizeOperation(token, 'trust.read');
    const rows = (await this.#ctx.store.certificates('authority')).sort((a, b) => (a.id < b.id ? -1 : 1));
    return withUnreadable(await this.#read(rows));
  }

  /**
   * Operation 41: logins of leaves it issued are refused from now on, and every service whose enrolled
   * certificate may have come through it loses the tokens it delegated.
   */
  async removeAuthority(token: string, id: string): Promise<void> {
    await this.#ctx.auth.authorizeOperation(token, 'trust.write');
    const row = await this.#ctx.store.certificate(id);
    if (row?.role !== 'authority') throw new NotFoundError(`no such trusted authority: ${id}`);
    await this.#ctx.store.deleteCertificate(id);
    await this.#endDelegationsUnder(row);
  }

  /**
   * Only the leaf is stored, not its path: a leaf issued by the removed authority, or by a CA that is
   * not itself trusted (an intermediate, which may chain to the removed one), or one that no longer
   * reads, counts as having come through it.
   */
  async #endDelegationsUnder(authority: CertificateRow): Promise<void> {
    const store = this.#ctx.store;
    const removed = subjectOf(authority.pem);
    const trusted = new Set((await store.certificates('authority')).map((row) => subjectOf(row.pem)));
    for (const leaf of await store.certificates('enrolled')) {
      const service = leaf.principalId === undefined ? undefined : await store.principalById(leaf.principalId);
      if (service?.kind !== 'service') continue;
      const issuer = issuerOf(leaf.pem);
      if (issuer === undefined || issuer === removed || !trusted.has(issuer)) await store.deleteTokensActingFor(service.name);
    }
  }

  async #read(rows: readonly CertificateRow[]): Promise<Readable[]> {
    const read: Readable[] = [];
    for (const row of rows) {
      const name = await this.#principalName(row);
      try {
        read.push({ row, view: certificateView(new X509Certificate(row.pem), name) });
      } catch {
        read.push({ row, view: undefined });
      }
    }
    return read;
  }

  async #principalName(row: CertificateRow): Promise<string | undefined> {
    return row.principalId === undefined ? undefined : (await this.#ctx.store.principalById(row.principalId))?.name;
  }
}

function subjectOf(pem: string): string | undefined {
  try {
    return new X509Certificate(pem).subject;
  } catch {
    return undefined;
  }
}

function issuerOf(pem: string): string | undefined {
  try {
    return new X509Certificate(pem).issuer;
  } catch {
    return undefined;
  }
}

function withUnreadable(items: readonly Readable[], next?: string): ListResult<CertificateInfo> {
  const views = items.flatMap((item) => (item.view === undefined ? [] : [item.view]));
  const unreadable = items.length - views.length;
  return {
    items: views,
    complete: unreadable === 0,
    ...(unreadable === 0 ? {} : { reason: `${unreadable} stored certificate(s) could not be read` }),
    ...(next === undefined ? {} : { next }),
  };
}
