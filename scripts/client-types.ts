import { readFileSync } from 'node:fs';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** The file `npm run openapi` writes beside openapi.json: the /api document's types for keygate/client. */
export const CLIENT_TYPES_FILE = new URL('../src/client/openapi-types.ts', import.meta.url);

const HEADER = `/**
 * The /api surface's types, generated from openapi.json by openapi-typescript (\`npm run openapi\`,
 * scripts/client-types.ts): do not edit. src/client/api-types.ts names the views the client answers
 * from these; test/client/api-types.test.ts fails when this file is not what a fresh generation makes.
 */
`;

/** The client's types for an OpenAPI document (readonly, as the client hands views out). */
export async function clientTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { immutable: true });
  return `${HEADER}\n${astToString(ast)}`;
}

/** The client's types for the committed openapi.json. */
export async function clientTypesOfCommittedDocument(): Promise<string> {
  return clientTypes(JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as object);
}
