import { KeygateError } from '../errors/keygate-error.js';

/** Not a certificate we can read (api-surface.md operation 37). */
export class CertificateMalformedError extends KeygateError {
  constructor(detail: string, cause?: unknown) {
    super('CERTIFICATE_MALFORMED', detail, { cause });
  }
}
