import { useEffect, useState } from 'preact/hooks';
import type { ConsoleApi, KeyQuery, KeyState, KeySummary, ListView } from '../console-api.js';
import { inputText, Pager, Section, Submit, Table, TaskState, usePages, useTask, when } from '../ui.js';

const PAGE = 50;

const STATES: readonly KeyState[] = ['active', 'disabled', 'expired', 'pending-deletion', 'deleted'];

/** The search form's fields, as typed. */
interface Search {
  readonly q: string;
  readonly tags: string;
  readonly state: KeyState | '';
  readonly owner: string;
}

const NO_SEARCH: Search = { q: '', tags: '', state: '', owner: '' };

/** The query for a search: blanks left out; one tag a line, each `name:value` or `name`. */
export function queryOf(search: Search): KeyQuery {
  const tags = search.tags
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return {
    ...(search.q === '' ? {} : { q: search.q }),
    ...(tags.length === 0 ? {} : { tags }),
    ...(search.state === '' ? {} : { state: search.state }),
    ...(search.owner.trim() === '' ? {} : { owner: search.owner.trim() }),
  };
}

/**
 * The keys the operator may use (GET /api/keys, docs/spec.md §4.23 item 1), newest first, searched by
 * label prefix, tags, state and owner, a page at a time; a key made anywhere (the root `POST /keys`
 * too) is listed. Reloaded when a key changes here (`changes`).
 */
export function KeyList({ api, changes, onOpen }: { api: ConsoleApi; changes: number; onOpen: (ttag: string) => Promise<unknown> }) {
  const [search, setSearch] = useState<Search>(NO_SEARCH);
  const [page, setPage] = useState<ListView<KeySummary> | undefined>(undefined);
  const task = useTask();
  const load = (cursor?: string) =>
    task.run(async () => setPage(await api.listKeys({ ...queryOf(search), limit: PAGE, ...(cursor === undefined ? {} : { cursor }) })));
  const pages = usePages(load);
  useEffect(() => void load(pages.current), [changes]);
  const submit = (event: Event) => {
    event.preventDefault();
    pages.reset();
    void load();
  };
  const field = (name: 'q' | 'owner') => ({ value: search[name], onInput: (e: Event) => setSearch({ ...search, [name]: inputText(e) }) });
  return (
    <Section title="Keys" id="key-list">
      <form onSubmit={submit} class="filters">
        <label>
          Label starts with <input id="keys-q" {...field('q')} />
        </label>
        <label>
          Tags <span class="muted">(one a line: name:value or name)</span>{' '}
          <textarea
            id="keys-tags"
            rows={1}
            value={search.tags}
            onInput={(e) => setSearch({ ...search, tags: (e.currentTarget as HTMLTextAreaElement).value })}
          />
        </label>
        <label>
          State{' '}
          <select id="keys-state" value={search.state} onChange={(e) => setSearch({ ...search, state: inputText(e) as Search['state'] })}>
            <option value="">any but deleted</option>
            {STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        </label>
        <label>
          Owner <input id="keys-owner" {...field('owner')} />
        </label>
        <Submit task={task} id="keys-search">
          Search
        </Submit>
      </form>
      <TaskState task={task} what="Listing the keys" />
      {page === undefined ? null : <KeyRows keys={page.items} onOpen={(ttag) => void task.run(() => onOpen(ttag))} />}
      <p class="pager">
        {pages.hasPrevious ? (
          <button type="button" onClick={pages.back}>
            Newer
          </button>
        ) : null}
      </p>
      <Pager next={page?.next} reason={page?.reason} onNext={pages.forward} />
    </Section>
  );
}

function KeyRows({ keys, onOpen }: { keys: readonly KeySummary[]; onOpen: (ttag: string) => void }) {
  if (keys.length === 0) return <p class="muted">No key matches.</p>;
  return (
    <Table id="keys-list" columns={['label', 'ttag', 'state', 'owner', 'created', 'tags', 'last used']}>
      {keys.map((key) => (
        <tr key={key.ttag} data-ttag={key.ttag}>
          <td>
            <button type="button" class="link" onClick={() => onOpen(key.ttag)}>
              {key.label ?? '(no label)'}
            </button>
          </td>
          <td class="wrap">
            <code>{key.ttag}</code>
          </td>
          <td data-field="state" class={`state-${key.state}`}>
            {key.state}
          </td>
          <td>{key.owner.user}</td>
          <td>{when(key.createdAt)}</td>
          <td class="wrap" data-field="tags">
            {Object.entries(key.tags ?? {})
              .map(([name, value]) => `${name}:${value}`)
              .join(' ')}
          </td>
          <td>
            {key.lastUsedAt === undefined ? <span class="muted">never</span> : `${when(key.lastUsedAt)} (${key.lastUsedOperation ?? ''})`}
          </td>
        </tr>
      ))}
    </Table>
  );
}
