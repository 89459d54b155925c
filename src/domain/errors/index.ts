export {
  BadRequestError,
  KeyServerFailedError,
  KeyServerUnavailableError,
  NotFoundError,
  SessionStoreUnavailableError,
} from './common.errors.js';
export { ERROR_CODES, type ErrorCode } from './error-codes.js';
export {
  type ErrorScope,
  isKeygateError,
  KeygateError,
  type KeygateErrorOptions,
  outcomeUnknown,
  withoutOutcome,
} from './keygate-error.js';
export { ConcurrentChangeError, NotSavedError, NotVerifiedError } from './read-back.errors.js';
