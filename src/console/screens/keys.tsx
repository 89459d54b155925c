import { useState } from 'preact/hooks';
import type { AclView, AuditRecordView, ConsoleApi, KeyView, ListView, Right } from '../console-api.js';
import { Field, inputText, Pager, Section, Submit, Table, TaskState, useTask, when } from '../ui.js';

const RIGHTS: readonly Right[] = ['read', 'export', 'encrypt', 'decrypt', 'mac'];

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

function KeyDetail({ api, initial, onChanged }: { api: ConsoleApi; initial: KeyView; onChanged: (key: KeyView) => void }) {
  const [key, setKey] = useState(initial);
  const [acl, setAcl] = useState<AclView | undefined>(undefined);
  const [mine, setMine] = useState<readonly Right[] | undefined>(undefined);
  const task = useTask();
  const refresh = () => task.run(async () => setAcl(await api.readAcl(key.ttag)));
  const whoCanReach = () => task.run(async () => setMine(await api.myAccess(key.ttag)));
  const expire = async () => {
    if (!window.confirm('Expire this key for good? It then refuses export and cryptography.')) return;
    const expired = await task.run(() => api.expireKey(key.ttag));
    if (expired !== undefined) {
      setKey(expired);
      onChanged(expired);
    }
  };
  return (
    <Section title={`Key ${key.label ?? ''}`} id="key-detail">
      <dl class="fields">
        <dt>ttag</dt>
        <dd data-field="ttag">
          <code>{key.ttag}</code>
        </dd>
        <dt>length</dt>
        <dd>{key.keyLen} bytes</dd>
        <dt>algo</dt>
        <dd>
          {key.algo} <span class="muted">(the export's fixed label, docs/spec.md §3.3)</span>
        </dd>
        <dt>owner</dt>
        <dd data-field="owner">{key.owner.user}</dd>
        <dt>state</dt>
        <dd data-field="state">{key.state}</dd>
        <dt>created</dt>
        <dd>{when(key.createdAt)}</dd>
        {key.expiresAt === undefined ? null : (
          <>
            <dt>expires</dt>
            <dd>{when(key.expiresAt)}</dd>
          </>
        )}
      </dl>
      <p class="actions">
        <button id="acl-refresh" type="button" onClick={refresh} disabled={task.busy}>
          Show the ACL
        </button>
        <button type="button" onClick={whoCanReach} disabled={task.busy}>
          My rights on it
        </button>
        <button type="button" class="danger" onClick={expire} disabled={task.busy || key.state === 'expired'}>
          Expire
        </button>
      </p>
      {mine === undefined ? null : <p data-field="my-rights">Your rights: {mine.length === 0 ? 'none' : mine.join(', ')}</p>}
      <TaskState task={task} what="Working" />
      {acl === undefined ? null : <AclTable api={api} ttag={key.ttag} acl={acl} onChanged={setAcl} />}
    </Section>
  );
}

/** Who can reach the key: its owner and each ACL entry (a group's entry reaches its members). */
function AclTable({ api, ttag, acl, onChanged }: { api: ConsoleApi; ttag: string; acl: AclView; onChanged: (acl: AclView) => void }) {
  const [principal, setPrincipal] = useState('');
  const [rights, setRights] = useState<readonly Right[]>(['read']);
  const task = useTask();
  const reread = async () => onChanged(await api.readAcl(ttag));
  const grant = async (event: Event) => {
    event.preventDefault();
    await task.run(async () => {
      await api.grant(ttag, principal.trim(), rights);
      await reread();
    });
  };
  const revoke = (who: string) =>
    task.run(async () => {
      await api.revoke(ttag, who);
      await reread();
    });
  const toggle = (right: Right) => setRights((held) => (held.includes(right) ? held.filter((r) => r !== right) : [...held, right]));
  return (
    <div id="acl">
      <h3>Who can reach this key</h3>
      <Table columns={['principal', 'rights', '']}>
        <tr>
          <td>{acl.owner.user}</td>
          <td>owner (every right, and the ACL)</td>
          <td />
        </tr>
        {acl.items.map((entry) => (
          <tr key={entry.principal} data-principal={entry.principal}>
            <td>{entry.principal}</td>
            <td data-field="rights">{entry.rights.join(', ')}</td>
            <td>
              <button type="button" class="danger" onClick={() => revoke(entry.principal)} disabled={task.busy}>
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </Table>
      {acl.complete ? null : <p class="muted">The ACL is longer than shown.</p>}
      <form onSubmit={grant} id="grant">
        <Field label="Principal or group" id="grant-principal" required value={principal} onValue={setPrincipal} />
        <fieldset>
          <legend>Rights</legend>
          {RIGHTS.map((right) => (
            <label class="check" key={right}>
              <input type="checkbox" name="right" value={right} checked={rights.includes(right)} onChange={() => toggle(right)} /> {right}
            </label>
          ))}
        </fieldset>
        <button id="grant-button" type="submit" disabled={task.busy || rights.length === 0}>
          Grant (replaces the principal's rights)
        </button>
      </form>
      <TaskState task={task} what="Changing the ACL" />
    </div>
  );
}
