import type { SessionRecord } from '../domain/session/session.js';

/** An authenticated caller as the use cases see it: the session and how the client presented it. */
export interface Caller {
  readonly session: SessionRecord;
  /** The session's store key (hash of the id): lets a use case end or replace the session. */
  readonly key: string;
}
