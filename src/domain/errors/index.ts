export { ERROR_CODES, type ErrorCode } from './error-codes.js';
export { KeygateError, isKeygateError, outcomeUnknown, withoutOutcome, type ErrorScope, type KeygateErrorOptions } from './keygate-error.js';
export {
  BadRequestError,
  NotFoundError,
  KeyServerUnavailableError,
  KeyServerFailedError,
  SessionStoreUnavailableError,
} from './common.errors.js';
export { NotSavedError, NotVerifiedError, ConcurrentChangeError } from './read-back.errors.js';
