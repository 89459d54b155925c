import { CONNECTIONS, DURATION_SECONDS } from './support.js';
import { benchAudit } from './audit.bench.js';
import { benchAuditChain } from './audit-chain.bench.js';
import { benchGateway } from './gateway.bench.js';
import { benchProofVerification } from './proof.bench.js';
import { benchDpop } from './dpop.bench.js';
import { benchKeyServer } from './keyserver.bench.js';
import { benchRedis } from './redis.bench.js';

/** `npm run bench`: every benchmark in one run, on loopback, bounded in time. */
process.stdout.write(`keygate bench: ${DURATION_SECONDS}s per target, ${CONNECTIONS} connections, node ${process.version}\n`);
await benchGateway();
await benchDpop();
await benchProofVerification();
await benchKeyServer();
await benchRedis();
await benchAudit();
await benchAuditChain();
