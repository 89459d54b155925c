import { X509Certificate } from 'node:crypto';
import type { CertificateInfo } from '../../domain/certificate/certificate.js';
import type { CertificateQuery, CertificateVerdict } from '../../domain/certificate/certificate-verdict.js';
import { NotFoundError } from '../../domain/errors/index.js';
import type { ListResult } from '../../domain/list/list-result.js';
import type { KeyServerEngine } from './engine.js';
import type { CertificateRow } from './engine-model.js';
import { certificateId, certificateView, chainToAuthority, parseCertificate } from './certificates.js';
import { pageOf } from './list-cursor.js';

/** A stored certificate as read: its view, or undefined when its PEM no longer parses. */
type Readable = { readonly row: CertificateRow; readonly view: CertificateInfo | undefined };

/**
 * Certificate objects (api-surface.md operations 35-38) and the trusted authorities (39, 41). Parse
 * and verify store nothing. A stored certificate that can no longer be read makes its list
 * incomplete; it is never silently left out.
 */
export class CertificateOperations {
  readonly #engine: KeyServerEngine;

  constructor(engine: KeyServerEngine) {
    this.#engine = engine;
  }

  /** Trusted authorities and enrolled leaves, by id, filtered by subject part and principal name. */
  list(token: string, query: CertificateQuery): ListResult<CertificateInfo> {
    this.#engine.authorizeOperation(token, 'certificates.read');
    const store = this.#engine.store;
    const owner = query.principal === undefined ? undefined : (store.principalByName(query.principal)?.principalId ?? '');
    const subject = query.subject?.toLowerCase();
    const rows = [...store.certificates('authority'), ...store.certificates('enrolled')]
      .filter((row) => owner === undefined || row.principalId === owner)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const matching = this.#read(rows).filter(({ view }) => view === undefined || subject === undefined || view.subject.toLowerCase().includes(subject));
    const page = pageOf(
      query,
      'certificates',
      (after, count) => matching.filter((c) => after === undefined || c.row.id > after).slice(0, count),
      (c) => c.row.id,
    );
    return withUnreadable(page.items, page.next);
  }

  read(token: string, id: string): CertificateInfo {
    this.#engine.authorizeOperation(token, 'certificates.read');
    const row = this.#engine.store.certificate(id);
    if (!row) throw new NotFoundError(`no such certificate: ${id}`);
    return certificateView(new X509Certificate(row.pem), this.#principalName(row));
  }

  /** Operation 37: the certificate's fields, with its principal when it is enrolled; nothing is stored. */
  parse(token: string, pem: string): CertificateInfo {
    this.#engine.authorizeOperation(token, 'certificates.parse');
    const cert = parseCertificate(pem, 'pem');
    const row = this.#engine.store.certificate(certificateId(cert));
    return certificateView(cert, row === undefined ? undefined : this.#principalName(row));
  }

  /** Operation 38: does it chain to a trusted authority now? */
  verify(token: string, pem: string): CertificateVerdict {
    this.#engine.authorizeOperation(token, 'certificates.verify');
    const cert = parseCertificate(pem, 'pem');
    const authorities = this.#engine.store.certificates('authority').map((row) => new X509Certificate(row.pem));
    const result = chainToAuthority(cert, authorities, this.#engine.now());
    if (!result.trusted) return { trusted: false, chain: [certificateId(cert)], reason: result.reason };
    return { trusted: true, chain: [...new Set(result.chain)] };
  }

  authorities(token: string): ListResult<CertificateInfo> {
    this.#engine.authorizeOperation(token, 'trust.read');
    const rows = this.#engine.store.certificates('authority').sort((a, b) => (a.id < b.id ? -1 : 1));
    return withUnreadable(this.#read(rows));
  }

  /** Operation 41: logins of leaves it issued are refused from now on. */
  removeAuthority(token: string, id: string): void {
    this.#engine.authorizeOperation(token, 'trust.write');
    const row = this.#engine.store.certificate(id);
    if (row?.role !== 'authority') throw new NotFoundError(`no such trusted authority: ${id}`);
    this.#engine.store.deleteCertificate(id);
  }

  #read(rows: readonly CertificateRow[]): Readable[] {
    return rows.map((row) => {
      try {
        return { row, view: certificateView(new X509Certificate(row.pem), this.#principalName(row)) };
      } catch {
        return { row, view: undefined };
      }
    });
  }

  #principalName(row: CertificateRow): string | undefined {
    return row.principalId === undefined ? undefined : this.#engine.store.principalById(row.principalId)?.name;
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
