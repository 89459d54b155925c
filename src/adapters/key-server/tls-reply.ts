import { KeyServerFailedError } from '../../domain/errors/index.js';
import { errorReply } from '../../keyserver/protocol/keyserver-protocol.js';
import { rebuildKeyServerError } from './wire-error.js';

/**
 * A daemon answer (docs/keyserver-protocol.md "Errors"), its body parsed (undefined when it is not
 * JSON): a 2xx gives its JSON; an error body throws the domain error of its code; anything else
 * throws KEY_SERVER_FAILED.
 */
export function interpretReply(status: number, json: unknown): unknown {
  if (status >= 200 && status < 300) {
    if (json === undefined) throw new KeyServerFailedError(`key server reply (HTTP ${status}) is not JSON`);
    return json;
  }
  const error = errorReply.safeParse(json);
  throw error.success
    ? rebuildKeyServerError(error.data.code, error.data.detail, error.data.reason)
    : new KeyServerFailedError(`key server answered HTTP ${status}`);
}

/** The JSON of an HTTP answer's body, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
