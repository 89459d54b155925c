import type { TestGateway } from './gateway.js';
import type { Reply } from './http.js';

export const bearer = (sessionId: string) => ({ Authorization: `Bearer ${sessionId}` });

/** A ttag (standard base64) as an /api path segment: base64url without padding. */
export const pathTtag = (ttag: string) => Buffer.from(ttag, 'base64').toString('base64url');

/** The /api as one session sees it. */
export interface ApiSession {
  readonly sessionId: string;
  get(path: string): Promise<Reply>;
  post(path: string, body?: unknown): Promise<Reply>;
  put(path: string, body?: unknown): Promise<Reply>;
  del(path: string): Promise<Reply>;
}

export function asSession(gw: TestGateway, sessionId: string): ApiSession {
  const headers = bearer(sessionId);
  const send = (method: string, path: string, body?: unknown) =>
    gw.call(method, path, body === undefined ? { headers } : { headers, body });
  return {
    sessionId,
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body),
    put: (path, body) => send('PUT', path, body),
    del: (path) => send('DELETE', path),
  };
}

/** Signs in (through the seven-operation login) and answers the /api view of that session. */
export async function signIn(gw: TestGateway, user: Parameters<TestGateway['login']>[0]): Promise<ApiSession> {
  return asSession(gw, await gw.login(user));
}

/** Creates a key on /api and answers its view; fails the test setup on anything but 201. */
export async function createKey(
  session: ApiSession,
  body: Record<string, unknown> = {},
): Promise<{ ttag: string; [field: string]: unknown }> {
  const reply = await session.post('/api/keys', body);
  if (reply.status !== 201) throw new Error(`create key: ${reply.status} ${reply.text}`);
  return reply.body;
}
