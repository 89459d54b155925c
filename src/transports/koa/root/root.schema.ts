import { z } from 'zod';
import { text } from '../schema/text-schema.js';
import { ttagField } from '../schema/ttag-schema.js';

// The text rule (docs/spec.md §1.6) holds here as on /api: no lone surrogate, no control character.
const user = text({ min: 1, minMessage: 'required', max: 256 });
const base64 = text({ min: 1, minMessage: 'required', max: 4096 });
/** A ttag, read once here: the handler receives its canonical form. */
const ttag = ttagField(base64);

/** The seven operations' request bodies (docs/spec.md §2.1, §2.2). Strict: an unknown field is refused. */
export const loginRequest = z.strictObject({ user, password: text({ min: 1, minMessage: 'required', max: 4096 }) });
export const generateRequest = z.strictObject({}).optional();
export const exportRequest = z.strictObject({ ttag, clientPubKey: base64 });
export const grantRequest = z.strictObject({ ttag, grantee: user });
export const revokeRequest = z.strictObject({ ttag, grantee: user });
