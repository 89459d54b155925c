import { useState } from 'preact/hooks';
import type { AclView, ConsoleApi, KeyState, ManagedKey, Right } from '../console-api.js';
import { Section, TaskState, useTask, when } from '../ui.js';
import { AclTable } from './key-acl.js';
import { KeyAliases } from './key-aliases.js';
import { KeyCrypto } from './key-crypto.js';
import { KeyDeletion } from './key-deletion.js';
import { KeySigning } from './key-signing.js';
import { KeyTags } from './key-tags.js';
import { KeyVersions } from './key-versions.js';

/** A state change the owner may make, its question, and the call (docs/spec.md §4.6). */
const STATE_CHANGES = {
  disable: {
    label: 'Disable',
    question: 'Disable this key? It then refuses export and cryptography, for everyone, until it is enabled; it keeps every version.',
    call: (api: ConsoleApi, ttag: string) => api.disableKey(ttag),
  },
  enable: {
    label: 'Enable',
    question: 'Enable this key? Export and cryptography work again for everyone its ACL allows.',
    call: (api: ConsoleApi, ttag: string) => api.enableKey(ttag),
  },
  expire: {
    label: 'Expire',
    question: 'Expire this key for good? It then refuses export and cryptography, and cannot be enabled again.',
    call: (api: ConsoleApi, ttag: string) => api.expireKey(ttag),
  },
} as const;

type StateChange = keyof typeof STATE_CHANGES;

/**
 * The changes a key in this state may take: disable or enable, and expire while neither expired nor
 * pending deletion (which refuses them, docs/spec.md §4.23 item 5) nor deleted.
 */
function changesFor(state: KeyState): readonly StateChange[] {
  if (state === 'active') return ['disable', 'expire'];
  if (state === 'disabled') return ['enable', 'expire'];
  return [];
}

/**
 * A key's page: its fields and last use, its state (each change confirmed) and scheduled deletion, its
 * versions, tags, aliases, ACL, the operator's rights, and the crypto tool (a signing key's: its public
 * keys, published JWKS and sign/verify tool, docs/spec.md §4.25).
 */
export function KeyDetail({ api, initial, onChanged }: { api: ConsoleApi; initial: ManagedKey; onChanged: (key: ManagedKey) => void }) {
  const [key, setKey] = useState(initial);
  const [acl, setAcl] = useState<AclView | undefined>(undefined);
  const [mine, setMine] = useState<readonly Right[] | undefined>(undefined);
  const task = useTask();
  const changed = (next: ManagedKey) => {
    setKey(next);
    onChanged(next);
  };
  const refresh = () => task.run(async () => setAcl(await api.readAcl(key.ttag)));
  const whoCanReach = () => task.run(async () => setMine(await api.myAccess(key.ttag)));
  const change = async (which: StateChange) => {
    const { question, call } = STATE_CHANGES[which];
    if (!window.confirm(question)) return;
    const next = await task.run(() => call(api, key.ttag));
    if (next !== undefined) changed(next);
  };
  return (
    <Section title={`Key ${key.label ?? ''}`} id="key-detail">
      <KeyFields keyView={key} />
      <p class="actions">
        <button id="acl-refresh" type="button" onClick={refresh} disabled={task.busy}>
          Show the ACL
        </button>
        <button type="button" onClick={whoCanReach} disabled={task.busy}>
          My rights on it
        </button>
        {changesFor(key.state).map((which) => (
          <button key={which} id={`key-${which}`} type="button" class="danger" onClick={() => change(which)} disabled={task.busy}>
            {STATE_CHANGES[which].label}
          </button>
        ))}
      </p>
      {mine === undefined ? null : <p data-field="my-rights">Your rights: {mine.length === 0 ? 'none' : mine.join(', ')}</p>}
      <TaskState task={task} what="Working" />
      <KeyDeletion api={api} keyView={key} onChanged={changed} />
      <KeyVersions api={api} keyView={key} onChanged={changed} />
      <KeyTags api={api} keyView={key} onChanged={changed} />
      <KeyAliases api={api} ttag={key.ttag} />
      {acl === undefined ? null : <AclTable api={api} ttag={key.ttag} acl={acl} onChanged={setAcl} />}
      {key.type === 'aes' ? (
        <KeyCrypto api={api} ttag={key.ttag} onUsed={changed} />
      ) : (
        <KeySigning api={api} keyView={key} onChanged={changed} />
      )}
    </Section>
  );
}

function KeyFields({ keyView: key }: { keyView: ManagedKey }) {
  return (
    <dl class="fields">
      <dt>ttag</dt>
      <dd data-field="ttag">
        <code>{key.ttag}</code>
      </dd>
      <dt>type</dt>
      <dd data-field="type">{key.type}</dd>
      {key.type === 'aes' ? (
        <>
          <dt>length</dt>
          <dd>{key.keyLen} bytes</dd>
          <dt>algo</dt>
          <dd>
            {key.algo} <span class="muted">(the export's fixed label, docs/spec.md §3.3)</span>
          </dd>
        </>
      ) : (
        <>
          <dt>alg</dt>
          <dd data-field="alg">{key.alg}</dd>
          <dt>private key</dt>
          <dd data-field="exportable">{key.exportable ? 'exportable' : 'never exported'}</dd>
          <dt>JWT lifetime</dt>
          <dd>at most {key.jwtMaxLifetime} s</dd>
        </>
      )}
      <dt>owner</dt>
      <dd data-field="owner">{key.owner.user}</dd>
      <dt>state</dt>
      <dd data-field="state" class={`state-${key.state}`}>
        {key.state}
      </dd>
      <dt>created</dt>
      <dd>{when(key.createdAt)}</dd>
      {key.expiresAt === undefined ? null : (
        <>
          <dt>expires</dt>
          <dd>{when(key.expiresAt)}</dd>
        </>
      )}
      <dt>last used</dt>
      <dd data-field="last-used">
        {key.lastUsedAt === undefined ? (
          <span class="muted">never</span>
        ) : (
          <>
            {when(key.lastUsedAt)} <span data-field="last-used-operation">{key.lastUsedOperation ?? ''}</span>
          </>
        )}
      </dd>
    </dl>
  );
}
