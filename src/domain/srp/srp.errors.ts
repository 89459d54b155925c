import { KeygateError } from '../errors/keygate-error.js';

/** An SRP value that must be refused (A or B zero mod N, u zero, a proof that does not match). */
export class SrpProtocolError extends KeygateError {
  override name = 'SrpProtocolError';

  constructor(detail: string) {
    super('WRONG_CREDENTIAL', detail);
  }
}
