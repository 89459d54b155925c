import { checkSenderKey, type SenderKey } from '../../wire/sender-key.js';
import { BadRequestError } from './key-server-errors.js';

/** Validates a sender key (api-surface.md operations 4 and 28); a refusal is BAD_REQUEST. */
export function parseSenderKey(value: unknown, options: { allowRsa: boolean; field: string }): SenderKey {
  const checked = checkSenderKey(value, options);
  if ('refused' in checked) throw new BadRequestError(checked.refused, checked.cause);
  return checked;
}
