import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useCallback, useState } from 'preact/hooks';
import { KeygateApiError, StreamError } from '../client/index.js';

/** A failure as the console shows it: the /api error's code and detail, or what else went wrong. */
export interface Shown {
  readonly code: string;
  readonly detail: string;
  readonly status?: number;
}

/** A failure the page finds before it asks the gateway (a context outside its rules): a code as /api would name it, no status. */
export class PageFault extends Error {
  override readonly name = 'PageFault';
  readonly code: string;

  constructor(code: string, detail: string) {
    super(detail);
    this.code = code;
  }
}

export function shownError(error: unknown): Shown {
  if (error instanceof KeygateApiError) return { code: error.code, detail: error.detail, status: error.status };
  // keygate/client's stream errors (docs/spec.md §4.5a, Streams item 5) and the page's own faults: their code, no status.
  if (error instanceof StreamError || error instanceof PageFault) return { code: error.code, detail: error.message };
  if (error instanceof TypeError) return { code: 'NETWORK', detail: `the gateway could not be reached (${error.message})` };
  return { code: 'ERROR', detail: error instanceof Error ? error.message : String(error) };
}

/**
 * Said (as a window event) when the gateway no longer knows the session: a 401 other than a wrong
 * password. The console then drops the session and asks to sign in again.
 */
export const SESSION_LOST = 'keygate-console:session-lost';

function reportIfSessionLost(failure: unknown, shown: Shown): void {
  if (failure instanceof KeygateApiError && failure.status === 401 && failure.code !== 'WRONG_CREDENTIAL') {
    window.dispatchEvent(new CustomEvent<Shown>(SESSION_LOST, { detail: shown }));
  }
}

/** The code, the status, and the detail unless it only says the code again (a key server of before it named a wrong password in words). */
export function ErrorBox({ error }: { error: Shown | undefined }) {
  if (error === undefined) return null;
  return (
    <p class="error" role="alert" data-code={error.code}>
      <strong>{error.code}</strong>
      {error.status === undefined ? '' : ` (HTTP ${error.status})`}
      {error.detail === error.code ? '' : `: ${error.detail}`}
    </p>
  );
}

/** One action's state: whether it runs (shown as progress), and its last failure. */
export interface Task {
  readonly busy: boolean;
  readonly error: Shown | undefined;
  /** Runs `work`; answers its result, or undefined once its failure is shown. */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
}

export function useTask(): Task {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Shown | undefined>(undefined);
  const run = useCallback(async <T,>(work: () => Promise<T>) => {
    setBusy(true);
    setError(undefined);
    try {
      return await work();
    } catch (failure) {
      const shown = shownError(failure);
      setError(shown);
      reportIfSessionLost(failure, shown);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}

/** A task's progress and failure, under the form or button that started it. */
export function TaskState({ task, what }: { task: Task; what: string }) {
  return (
    <>
      {task.busy ? (
        <p class="progress" role="status">
          {what}…
        </p>
      ) : null}
      <ErrorBox error={task.error} />
    </>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="card" id={id}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** "Next page" for a list /api answers in pages; says when the list is incomplete and why. */
export function Pager({
  next,
  reason,
  onNext,
}: {
  next: string | undefined;
  reason?: string | undefined;
  onNext: (cursor: string) => void;
}) {
  return (
    <p class="pager">
      {reason === undefined ? null : <span class="muted">list incomplete: {reason} </span>}
      {next === undefined ? null : (
        <button type="button" onClick={() => onNext(next)}>
          Next page
        </button>
      )}
    </p>
  );
}

/** The cursors of the pages of a list read so far: `forward` and `back` move and load, `reset` forgets them. */
export interface Pages {
  /** The cursor of the page shown (undefined: the first). */
  readonly current: string | undefined;
  readonly hasPrevious: boolean;
  forward(cursor: string): void;
  back(): void;
  reset(): void;
}

/** Paging through a list /api answers in pages (`Pager` shows the way forward). */
export function usePages(load: (cursor?: string) => unknown): Pages {
  const [cursors, setCursors] = useState<readonly string[]>([]);
  return {
    current: cursors.at(-1),
    hasPrevious: cursors.length > 0,
    forward(cursor) {
      setCursors((seen) => [...seen, cursor]);
      void load(cursor);
    },
    back() {
      const back = cursors.slice(0, -1);
      setCursors(back);
      void load(back.at(-1));
    },
    reset: () => setCursors([]),
  };
}

/** A table of one header row: `columns` names its header cells (empty over a column of buttons), `children` are its rows. */
export function Table({ id, columns, children }: { id?: string; columns: readonly string[]; children: ComponentChildren }) {
  return (
    <table id={id}>
      <thead>
        <tr>
          {columns.map((column, index) => (
            <th key={index}>{column}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** What a `Field`'s input may be given besides its value. */
export interface FieldInput {
  readonly id?: string;
  readonly name?: string;
  readonly type?: 'password';
  readonly autocomplete?: string;
  readonly placeholder?: string;
  readonly required?: boolean;
}

/** A labelled text input kept in a state value. */
export function Field({
  label,
  value,
  onValue,
  type,
  ...rest
}: FieldInput & { label: string; value: string; onValue: (text: string) => void }) {
  const input: InputHTMLAttributes<HTMLInputElement> = type === 'password' ? { ...rest, type } : rest;
  return (
    <label>
      {label} <input {...input} value={value} onInput={(e) => onValue(inputText(e))} />
    </label>
  );
}

/** A form's submit button, off while its task runs. */
export function Submit({ task, id, children }: { task: Task; id?: string; children: ComponentChildren }) {
  return (
    <button id={id} type="submit" disabled={task.busy}>
      {children}
    </button>
  );
}

/** The text of an input event's target. */
export function inputText(event: Event): string {
  return (event.currentTarget as HTMLInputElement).value;
}

export function when(iso: string | undefined): string {
  return iso === undefined ? '' : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}
