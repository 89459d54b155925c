import { KeygateApiError, ReauthRequiredError } from '../index.js';

/** Small DOM helpers for the demo page: typed element lookup, step outputs, the request log. */

export function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`demo page: no #${id}`);
  return found as T;
}

export type Fields = ReadonlyArray<readonly [label: string, value: string]>;

/** Shows a step's result as a definition list (labels and values set as text, never as HTML). */
export function showOk(id: string, fields: Fields): void {
  const out = element<HTMLOutputElement>(id);
  const list = document.createElement('dl');
  for (const [label, value] of fields) {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = value;
    dd.dataset.field = label;
    list.append(dt, dd);
  }
  out.replaceChildren(list);
  out.dataset.state = 'ok';
}

export function showBusy(id: string): void {
  const out = element<HTMLOutputElement>(id);
  out.textContent = 'working…';
  out.dataset.state = 'busy';
}

/** What a person should read about a failure: the contract code, or the browser's refusal. */
export function describeError(error: unknown): string {
  if (error instanceof ReauthRequiredError) return `${error.code} (${error.status}): the gateway asks to sign in again`;
  if (error instanceof KeygateApiError) return `${error.code} (${error.status}): ${error.detail}`;
  if (error instanceof TypeError)
    return `network error: ${error.message} (the gateway is unreachable, or the browser refused its cross-origin answer)`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export function showError(id: string, error: unknown): void {
  const out = element<HTMLOutputElement>(id);
  out.textContent = describeError(error);
  out.dataset.state = 'error';
  out.dataset.error = error instanceof KeygateApiError ? error.code : error instanceof Error ? error.name : 'Error';
}

/**
 * A fetch that writes each request to the page's log: method, path, status, and whether it carried
 * a DPoP proof. Only the header's presence is shown, never its value or the bearer.
 */
export function loggingFetch(base: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const withProof = new Headers(init?.headers).has('DPoP');
    const item = document.createElement('li');
    item.textContent = `${init?.method ?? 'GET'} ${url.pathname}`;
    element('log').append(item);
    try {
      const response = await base(input, init);
      addStatus(item, String(response.status), response.ok);
      if (withProof) addBadge(item);
      return response;
    } catch (error) {
      addStatus(item, 'blocked', false);
      throw error;
    }
  };
}

function addStatus(item: HTMLLIElement, text: string, ok: boolean): void {
  const status = document.createElement('span');
  status.className = ok ? 'status-ok' : 'status-error';
  status.textContent = ` → ${text}`;
  item.append(status);
}

function addBadge(item: HTMLLIElement): void {
  const badge = document.createElement('span');
  badge.className = 'proof';
  badge.textContent = 'DPoP';
  item.append(badge);
}
