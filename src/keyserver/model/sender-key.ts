import { checkSenderKey, type SenderKey } from '../../wire/sender-key.js';
import { BadRequestError } from './key-server-errors.js';

/** Validates a sender key (docs/spec.md §4.4, §4.8); a refusal is BAD_REQUEST. */
export function parseSenderKey(value: unknown, options: { allowRsa: boolean; field: string }): SenderKey {
  const checked = checkSenderKey(value, options);
  if ('refused' in checked) throw new BadRequestError(checked.refused, checked.cause);
  return checked;
}
