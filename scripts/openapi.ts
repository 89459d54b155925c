import { writeFileSync } from 'node:fs';
import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { createGateway } from '../src/app/create-gateway.js';

/** `npm run openapi`: writes openapi.json from the same zod schemas the routes validate with. */
const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: 'unused' } }, { logger: new MemoryLogger() });
writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(gateway.openApi(), null, 2)}\n`);
await gateway.close();
process.stdout.write('wrote openapi.json\n');
