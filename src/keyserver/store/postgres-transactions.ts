import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';

export const SERIALIZABLE = 'SERIALIZABLE';

/** How many times one operation runs at most when concurrent transactions keep making it fail. */
const ATTEMPTS = 12;
/** The first pause before a run again (ms); it doubles each time, drawn at random below that bound. */
const FIRST_PAUSE_MS = 2;

/**
 * SQLSTATE 40001 (serialization_failure) and 40P01 (deadlock_detected): the transaction was rolled
 * back because of concurrent ones, and running it again may succeed.
 */
export function isSerializationFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '40001' || code === '40P01';
}

/**
 * One transaction on one pooled connection. Its statements go through `query`, which remembers the
 * first that failed: a failed statement aborts the whole transaction, whatever the caller did with
 * the error, and that failure decides whether the work runs again.
 */
export class Unit {
  readonly #client: pg.PoolClient;
  failure: unknown;
  /** What the unit read, by the reader's key: its snapshot changes only by its own writes, which empty this. */
  readonly reads = new Map<string, unknown>();

  constructor(client: pg.PoolClient) {
    this.#client = client;
  }

  async query<R extends pg.QueryResultRow>(query: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.#client.query<R>(query, values);
    } catch (error) {
      this.failure ??= error;
      throw error;
    }
  }
}

/**
 * Runs `work` in one transaction on a pooled connection at the given isolation level, and commits.
 * When `work` throws, what it wrote is still committed, then its error is rethrown (the engine store's
 * rule: a refusal may follow a write); when a statement of it failed, the transaction is rolled back
 * instead. A serialization failure or a deadlock, in a statement or at COMMIT, runs `work` again from
 * the start, a bounded number of times, after a random pause whose bound doubles each time.
 */
export async function inTransaction<T>(pool: pg.Pool, isolation: string, work: (unit: Unit) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await once(pool, isolation, work);
    } catch (error) {
      if (!(error instanceof Retry) || attempt >= ATTEMPTS) throw error instanceof Retry ? error.cause : error;
      await sleep(Math.random() * FIRST_PAUSE_MS * 2 ** attempt);
    }
  }
}

/** A run that failed for a concurrent transaction: `cause` is PostgreSQL's error. */
class Retry extends Error {}

async function once<T>(pool: pg.Pool, isolation: string, work: (unit: Unit) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection whose state is unknown (a failed COMMIT or ROLLBACK) is not given back to the pool.
  let broken: Error | undefined;
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation}`).catch((error: Error) => {
      broken = error;
      throw error;
    });
    const unit = new Unit(client);
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await work(unit) };
    } catch (error) {
      outcome = { error };
    }
    if (unit.failure !== undefined) {
      await client.query('ROLLBACK').catch((error: Error) => (broken = error));
      if (isSerializationFailure(unit.failure)) throw new Retry('serialization failure', { cause: unit.failure });
      throw 'error' in outcome ? outcome.error : unit.failure;
    }
    try {
      await client.query('COMMIT');
    } catch (error) {
      if (isSerializationFailure(error)) throw new Retry('serialization failure', { cause: error });
      broken = error as Error;
      throw error;
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  } finally {
    client.release(broken);
  }
}
