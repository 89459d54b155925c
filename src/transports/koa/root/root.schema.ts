import { z } from 'zod';

const user = z.string().min(1, 'required').max(256);
const base64 = z.string().min(1, 'required').max(4096);

/** The seven operations' request bodies (docs/spec.md §2.1, §2.2). Strict: an unknown field is refused. */
export const loginRequest = z.strictObject({ user, password: z.string().min(1, 'required').max(4096) });
export const generateRequest = z.strictObject({}).optional();
export const exportRequest = z.strictObject({ ttag: base64, clientPubKey: base64 });
export const grantRequest = z.strictObject({ ttag: base64, grantee: user });
export const revokeRequest = z.strictObject({ ttag: base64, grantee: user });
