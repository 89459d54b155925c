/**
 * The wrapped key envelope of an export (docs/spec.md §3) and the wrap's fixed parameters
 * (docs/spec.md §3.2): the arithmetic is src/crypto/p256-wrap.ts, shared with the key server's data-key
 * wrap; the export's HKDF info is `keygate export v1`. On /api the wrap may also be the X-Wing HPKE
 * wrap of docs/spec.md §3.4 (src/crypto/xwing-wrap.ts, info `keygate export v2`).
 */
export type { ClientWrappedKey } from '../../crypto/client-wrap.js';
export {
  CLIENT_PUBLIC_KEY_BYTES,
  EXPORT_WRAP_INFO as WRAP_HKDF_INFO,
  WRAP_AES_KEY_BYTES,
  WRAP_CURVE,
  WRAP_IV_BYTES,
  WRAP_SALT_BYTES,
  WRAP_TAG_BYTES,
  type WrappedKey,
} from '../../crypto/p256-wrap.js';
export { XWING_PUBLIC_KEY_BYTES, XWING_WRAP_ALGO, type XWingWrappedKey } from '../../crypto/xwing-suite.js';
