import { readFileSync } from 'node:fs';
import test from 'ava';
import type { z } from 'zod';
import { CLIENT_TYPES_FILE, clientTypesOfCommittedDocument } from '../../scripts/client-types.js';
import type {
  AclView,
  KeyVersionView as ClientKeyVersionView,
  KeyView as ClientKeyView,
  HealthView,
  MacView,
  SessionListItem,
  SessionView,
} from '../../src/client/api-types.js';
import { keyView } from '../../src/transports/koa/api/api-responses.js';
import type { KeyVersionView, KeyView } from '../../src/wire/key-view.js';

/** Whether A and B are assignable both ways (never is the same as nothing: an alias that came out never is a fault). */
type Same<A, B> = [A] extends [never] ? false : [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Found<T> = [T] extends [never] ? false : true;

/**
 * The key view is declared once (src/wire/key-view.ts). `npm run typecheck` fails here when the client's
 * view (generated from openapi.json) or the /api answer schema says anything else, and when an alias
 * of src/client/api-types.ts finds no answer in the document.
 */
const AGREEMENTS = [
  true satisfies Same<ClientKeyView, KeyView>,
  true satisfies Same<ClientKeyVersionView, KeyVersionView>,
  // The answer schema's output is KeyView (its `satisfies` in api-responses.ts) and names the same fields.
  true satisfies Same<keyof z.output<typeof keyView>, keyof KeyView>,
  true satisfies Found<SessionView>,
  true satisfies Found<SessionListItem>,
  true satisfies Found<AclView>,
  true satisfies Found<MacView>,
  true satisfies Found<HealthView>,
] as const;

/** Every field of the wire's key view, once: the compiler refuses a missing or an extra one. */
const KEY_VIEW_FIELDS = {
  ttag: true,
  type: true,
  keyLen: true,
  algo: true,
  alg: true,
  exportable: true,
  published: true,
  jwtMaxLifetime: true,
  label: true,
  owner: true,
  state: true,
  createdAt: true,
  expiresAt: true,
  version: true,
  minVersion: true,
  versions: true,
  versionsOmitted: true,
  rotationPeriod: true,
  nextRotationAt: true,
  tags: true,
  deletionAt: true,
  deletedAt: true,
  lastUsedAt: true,
  lastUsedOperation: true,
} as const satisfies Record<keyof KeyView, true>;

test('src/client/openapi-types.ts is what openapi-typescript makes of the committed openapi.json (npm run openapi writes both)', async (t) => {
  t.is(readFileSync(CLIENT_TYPES_FILE, 'utf8'), await clientTypesOfCommittedDocument());
});

test('the /api answer schema and openapi.json describe the key view with the fields of the wire type, no more, no fewer', (t) => {
  const fields = Object.keys(KEY_VIEW_FIELDS).sort();
  t.deepEqual(Object.keys(keyView.shape).sort(), fields);
  const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };
  t.deepEqual(Object.keys(document.components.schemas.Key!.properties).sort(), fields);
  t.true(AGREEMENTS.every((agreed) => agreed));
});
