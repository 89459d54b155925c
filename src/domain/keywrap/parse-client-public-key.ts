import { ECDH } from 'node:crypto';
import { checkClientKeyForm } from '../../crypto/client-wrap.js';
import { checkClientPointForm, WRAP_CURVE } from '../../crypto/p256-wrap.js';
import { isStandardBase64 } from '../../wire/base64.js';
import { BadRequestError } from '../errors/common.errors.js';

/**
 * Decodes and validates `clientPubKey` (docs/spec.md §3.1): standard base64, 65 bytes,
 * leading 0x04, and a point on P-256. Anything else is a bad request.
 */
export function parseClientPublicKey(base64: string): Buffer {
  const point = decodeClientPublicKey(base64);
  try {
    // Decoding through OpenSSL rejects a point that is not on the curve.
    ECDH.convertKey(point, WRAP_CURVE, undefined, undefined, 'uncompressed');
  } catch (cause) {
    throw new BadRequestError('clientPubKey: not a point on P-256', cause);
  }
  return point;
}

/**
 * The form checks alone: standard base64, 65 bytes, leading 0x04 (the root surface's export, P-256
 * only: docs/spec.md §3.4). The export checks the curve in its ECDH step (`prepareWrap`), which decodes
 * the point anyway: no second decode.
 */
export function decodeClientPublicKey(base64: string): Buffer {
  const point = decodeBase64Key(base64);
  checkClientPointForm(point, BadRequestError);
  return point;
}

/**
 * The form checks of an /api `clientPubKey` (docs/spec.md §3.4): standard base64, then by its length
 * alone a P-256 point (65 bytes, leading 0x04) or an X-Wing public key (1,216 bytes); any other length
 * is a bad request. The wrap's first step checks the rest (the curve, the KEM's key checks).
 */
export function decodeAnyClientPublicKey(base64: string): Buffer {
  const key = decodeBase64Key(base64);
  checkClientKeyForm(key, BadRequestError);
  return key;
}

function decodeBase64Key(base64: string): Buffer {
  if (!isStandardBase64(base64)) throw new BadRequestError('clientPubKey: not standard base64');
  return Buffer.from(base64, 'base64');
}
