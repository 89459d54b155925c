import { MemoryAuditLog } from '../adapters/audit-log/memory-audit-log.js';
import { PostgresAuditLog } from '../adapters/audit-log/postgres-audit-log.js';
import { SqliteAuditLog } from '../adapters/audit-log/sqlite-audit-log.js';
import type { AuditLog } from '../ports/audit-log.port.js';
import type { AuditChain } from '../domain/audit/audit-chain.js';
import type { Logger } from '../ports/logger.port.js';
import type { GatewayConfig } from './config.js';

/**
 * Opens the configured audit store, creating or migrating its schema, its entries sealed on `chain`
 * (unchained without one: benchmarks and tests only). Throws AuditUnavailableError
 * when it cannot: the gateway does not start without the store its sensitive operations need.
 */
export async function openAuditLog(config: GatewayConfig['audit'], logger: Logger, chain?: AuditChain): Promise<AuditLog> {
  switch (config.kind) {
    case 'memory':
      return new MemoryAuditLog(chain === undefined ? {} : { chain });
    case 'sqlite':
      return SqliteAuditLog.open({ file: config.file, ...(chain === undefined ? {} : { chain }) });
    case 'postgres':
      return PostgresAuditLog.open({
        url: config.url,
        schema: config.schema,
        connectTimeoutMs: config.connectTimeoutMs,
        statementTimeoutMs: config.statementTimeoutMs,
        onConnectionError: (error) => logger.warn('audit database connection lost', { cause: `${error.name}: ${error.message}` }),
        ...(chain === undefined ? {} : { chain }),
      });
  }
}
