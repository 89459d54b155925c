import { newAuditId } from '../domain/audit/audit.js';
import type { AuditLog } from '../ports/audit-log.port.js';
import type { Timer } from '../ports/clock.port.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { Random } from '../ports/random.port.js';

/** How often a gateway asks the key server for destructions not yet recorded (docs/spec.md §4.23 item 5). */
export const DESTRUCTION_RECORDS_INTERVAL_MS = 60_000;

/** The audit record's operation and principal: no principal name holds `:` (docs/spec.md §4.23 item 5). */
export const DESTROY_OPERATION = 'keys.destroy';
export const SWEEP_PRINCIPAL = 'keyserver:sweep';

export interface DestructionRecordsDeps {
  readonly keyServer: KeyServer;
  readonly log: AuditLog;
  readonly clock: Timer;
  readonly random: Random;
  readonly logger: Logger;
}

/**
 * The audit record of each key the key server's sweep destroyed (docs/spec.md §4.23 item 5 "Its audit
 * record"): at start and every DESTRUCTION_RECORDS_INTERVAL_MS of the gateway's clock, the gateway
 * claims the destructions not yet recorded (the key server hands each to one gateway at a time, for 5
 * minutes), appends each one's `keys.destroy` record, then confirms it. A gateway that stops between
 * the two leaves the destruction to the next claim once its own lapses: a record may then be written
 * twice, never not at all. The calls are the gateway's own (`KeyServer.connectAsGateway`).
 */
export class DestructionRecords {
  readonly #deps: DestructionRecordsDeps;
  /** The round under way (its writes), never the wait for the next one. */
  #round: Promise<unknown> = Promise.resolve();
  #stopped = true;

  constructor(deps: DestructionRecordsDeps) {
    this.#deps = deps;
  }

  /** Records every destruction the key server hands this gateway now; answers how many it recorded. */
  async recordClaimed(): Promise<number> {
    const { keyServer, log, random } = this.#deps;
    const connection = await keyServer.connectAsGateway();
    try {
      const { items } = await connection.call('claimKeyDestructions', {});
      for (const { ttag, deletedAt } of items) {
        const id = newAuditId(random);
        await log.append({
          id,
          at: deletedAt,
          requestId: id,
          principal: SWEEP_PRINCIPAL,
          operation: DESTROY_OPERATION,
          object: ttag,
          outcome: 'ok',
          status: 200,
        });
        await connection.call('confirmKeyDestruction', { ttag });
      }
      return items.length;
    } finally {
      await connection.close();
    }
  }

  /** Starts recording: once now, then every interval, one round at a time, until `stop`. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const rounds = async () => {
      while (!this.#stopped) {
        this.#round = this.recordClaimed().catch((error: unknown) =>
          this.#deps.logger.warn('destroyed keys not recorded yet: tried again next round', {
            reason: error instanceof Error ? error.message : String(error),
          }),
        );
        await this.#round;
        if (!this.#stopped) await this.#deps.clock.sleep(DESTRUCTION_RECORDS_INTERVAL_MS, { background: true });
      }
    };
    void rounds();
  }

  /** Stops after the round under way has ended its writes (a wait for the next round just ends). */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#round;
  }
}
