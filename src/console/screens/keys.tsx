import { useState } from 'preact/hooks';
import type { AuditRecordView, ConsoleApi, KeyView, ListView } from '../console-api.js';
import { Field, inputText, Pager, Section, Submit, Table, TaskState, useTask, when } from '../ui.js';
import { KeyDetail } from './key-detail.js';

/**
 * Keys: /api has no listing of keys, so the console lists the keys made or opened here (by ttag), and
 * for an operator who may read the audit log, the keys whose creation it recorded; it shows one with
 * its ACL, the caller's own rights, expiry, and grant and revoke.
 */
export function Keys({ api }: { api: ConsoleApi }) {
  const [keys, setKeys] = useState<readonly KeyView[]>([]);
  const [selected, setSelected] = useState<KeyView | undefined>(undefined);
  const remember = (key: KeyView) => {
    setKeys((known) => [key, ...known.filter((k) => k.ttag !== key.ttag)]);
    setSelected(key);
  };
  return (
    <>
      <CreateKey api={api} onCreated={remember} />
      <OpenKey api={api} onOpened={remember} />
      <Section title="Keys of this session" id="key-list">
        {keys.length === 0 ? <p class="muted">None yet: create one, or open one by its ttag.</p> : null}
        <ul class="plain">
          {keys.map((key) => (
            <li key={key.ttag}>
              <button type="button" class="link" onClick={() => setSelected(key)}>
                {key.label ?? '(no label)'}
              </button>{' '}
              <code>{key.ttag}</code> <span class={`state-${key.state}`}>{key.state}</span>
            </li>
          ))}
        </ul>
      </Section>
      {selected === undefined ? null : <KeyDetail key={selected.ttag} api={api} initial={selected} onChanged={remember} />}
      <CreatedKeys api={api} onOpened={remember} />
    </>
  );
}

/** The keys created, as the audit log recorded them (`keys.create`, ok), newest first, a page at a time. */
function CreatedKeys({ api, onOpened }: { api: ConsoleApi; onOpened: (key: KeyView) => void }) {
  const [page, setPage] = useState<ListView<AuditRecordView> | undefined>(undefined);
  const task = useTask();
  const load = (cursor?: string) =>
    task.run(async () =>
      setPage(await api.audit({ operation: 'keys.create', outcome: 'ok', limit: 20, ...(cursor === undefined ? {} : { cursor }) })),
    );
  const open = async (ttag: string) => {
    const key = await task.run(() => api.readKey(ttag));
    if (key !== undefined) onOpened(key);
  };
  return (
    <Section title="Keys created (from the audit log)" id="created-keys">
      <p>
        <button id="created-keys-button" type="button" onClick={() => load()} disabled={task.busy}>
          List the keys created
        </button>
      </p>
      <TaskState task={task} what="Reading the audit log" />
      {page === undefined ? null : (
        <Table columns={['created', 'by', 'ttag']}>
          {page.items.map((record) => (
            <tr key={record.id}>
              <td>{when(record.at)}</td>
              <td>{record.principal ?? ''}</td>
              <td>
                {record.object === undefined ? null : (
                  <button type="button" class="link" onClick={() => open(record.object!)}>
                    <code>{record.object}</code>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pager next={page?.next} reason={page?.reason} onNext={(cursor) => void load(cursor)} />
    </Section>
  );
}

function CreateKey({ api, onCreated }: { api: ConsoleApi; onCreated: (key: KeyView) => void }) {
  const [label, setLabel] = useState('');
  const [keyLen, setKeyLen] = useState<16 | 24 | 32>(32);
  const task = useTask();
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = await task.run(() => api.createKey({ keyLen, ...(label === '' ? {} : { label }) }));
    if (key !== undefined) onCreated(key);
  };
  return (
    <Section title="Create a key" id="create-key">
      <form onSubmit={submit}>
        <Field label="Label" id="key-label" value={label} onValue={setLabel} />
        <label>
          Length{' '}
          <select id="key-length" value={String(keyLen)} onChange={(e) => setKeyLen(Number(inputText(e)) as 16 | 24 | 32)}>
            <option value="16">16 bytes (AES-128)</option>
            <option value="24">24 bytes (AES-192)</option>
            <option value="32">32 bytes (AES-256)</option>
          </select>
        </label>
        <Submit task={task} id="create-key-button">
          Create
        </Submit>
      </form>
      <TaskState task={task} what="Creating the key" />
    </Section>
  );
}

function OpenKey({ api, onOpened }: { api: ConsoleApi; onOpened: (key: KeyView) => void }) {
  const [ttag, setTtag] = useState('');
  const task = useTask();
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = await task.run(() => api.readKey(ttag.trim()));
    if (key !== undefined) onOpened(key);
  };
  return (
    <Section title="Open a key" id="open-key">
      <form onSubmit={submit}>
        <Field label="ttag" id="open-ttag" required value={ttag} onValue={setTtag} />
        <Submit task={task}>Open</Submit>
      </form>
      <TaskState task={task} what="Reading the key" />
    </Section>
  );
}
