/**
 * Where the console keeps its session id: in this page's memory only (gone on reload), unless the
 * operator ticks "keep for this tab", and then in sessionStorage as well (gone when the tab closes).
 * Never localStorage, never a cookie, never a URL.
 */
const STORAGE_KEY = 'keygate.console.session';

export function keptSessionId(): string | undefined {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function keepSessionId(sessionId: string | undefined): void {
  try {
    if (sessionId === undefined) window.sessionStorage.removeItem(STORAGE_KEY);
    else window.sessionStorage.setItem(STORAGE_KEY, sessionId);
  } catch {
    // Storage refused (a private window's quota, a policy): the session stays in memory only.
  }
}
