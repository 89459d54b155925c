import { writeFileSync } from 'node:fs';
import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { createGateway } from '../src/app/create-gateway.js';
import { CLIENT_TYPES_FILE, clientTypes } from './client-types.js';

/**
 * `npm run openapi`: writes openapi.json from the same zod schemas the routes validate with, and the
 * client's types (src/client/openapi-types.ts) from that document.
 */
const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: 'unused' } }, { logger: new MemoryLogger() });
const document = gateway.openApi();
await gateway.close();
writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
writeFileSync(CLIENT_TYPES_FILE, await clientTypes(JSON.parse(JSON.stringify(document)) as object));
process.stdout.write('wrote openapi.json and src/client/openapi-types.ts\n');
