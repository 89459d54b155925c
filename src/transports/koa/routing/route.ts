import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What every route declaration states, on either surface (`route` for /api, `rootRoute` for the seven
 * operations): one declaration mounts the route in the route table, writes its OpenAPI operation and
 * names it in the audit log.
 */
export interface RouteDeclaration<B = unknown> {
  /** Which surface it belongs to, and so its steps and its error mapper. */
  readonly surface: 'api' | 'root';
  /** Its id in the OpenAPI document. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Koa path, parameters as `:name`. */
  readonly path: string;
  /** `none` for the operations that need no session (docs/spec.md §2.1, §4.1 item 1). */
  readonly auth: 'session' | 'none';
  readonly summary: string;
  /** The request body's schema (zod, strict), parsed once the session is known. */
  readonly body?: z.ZodType<B>;
  /** False for a route that leaves no audit record (health probes: docs/spec.md §9.1). */
  readonly audited?: boolean;
}
