import { useState } from 'preact/hooks';
import { KEY_TYPES, type KeyType } from '../../wire/key-type.js';
import type { ConsoleApi, ManagedKey } from '../console-api.js';
import { Field, inputText, Section, Submit, TaskState, useTask } from '../ui.js';
import { KeyDetail } from './key-detail.js';
import { KeyList } from './key-list.js';

/**
 * Keys: create one, open one by its ttag or alias, and the list of the keys the operator may use
 * (GET /api/keys, docs/spec.md §4.23 item 1), searched and paged; a key opened shows its page.
 */
export function Keys({ api }: { api: ConsoleApi }) {
  const [selected, setSelected] = useState<ManagedKey | undefined>(undefined);
  const [changes, setChanges] = useState(0);
  const changed = (key: ManagedKey) => {
    setSelected(key);
    setChanges((n) => n + 1);
  };
  const open = (ttag: string) => api.readKey(ttag).then(setSelected);
  return (
    <>
      <CreateKey api={api} onCreated={changed} />
      <OpenKey api={api} onOpened={setSelected} />
      <KeyList api={api} changes={changes} onOpen={open} />
      {selected === undefined ? null : <KeyDetail key={selected.ttag} api={api} initial={selected} onChanged={changed} />}
    </>
  );
}

const TYPE_LABELS: Readonly<Record<KeyType, string>> = {
  aes: 'AES (encryption, MAC)',
  'ec-p256': 'EC P-256 signing (ES256)',
  'ec-p384': 'EC P-384 signing (ES384)',
  ed25519: 'Ed25519 signing (EdDSA)',
  'rsa-2048': 'RSA 2048 signing (RS256)',
  'rsa-3072': 'RSA 3072 signing (RS256)',
  'rsa-4096': 'RSA 4096 signing (RS256)',
};

/** Creates an aes key of a length, or a signing key of a type with its type's default alg (docs/spec.md §4.25 item 1). */
function CreateKey({ api, onCreated }: { api: ConsoleApi; onCreated: (key: ManagedKey) => void }) {
  const [label, setLabel] = useState('');
  const [type, setType] = useState<KeyType>('aes');
  const [keyLen, setKeyLen] = useState<16 | 24 | 32>(32);
  const task = useTask();
  const submit = async (event: Event) => {
    event.preventDefault();
    const shape = type === 'aes' ? { keyLen } : { type };
    const key = await task.run(() => api.createKey({ ...shape, ...(label === '' ? {} : { label }) }));
    if (key !== undefined) onCreated(key);
  };
  return (
    <Section title="Create a key" id="create-key">
      <form onSubmit={submit}>
        <Field label="Label" id="key-label" value={label} onValue={setLabel} />
        <label>
          Type{' '}
          <select id="key-type" value={type} onChange={(e) => setType(inputText(e) as KeyType)}>
            {KEY_TYPES.map((one) => (
              <option key={one} value={one}>
                {TYPE_LABELS[one]}
              </option>
            ))}
          </select>
        </label>
        {type !== 'aes' ? null : (
          <label>
            Length{' '}
            <select id="key-length" value={String(keyLen)} onChange={(e) => setKeyLen(Number(inputText(e)) as 16 | 24 | 32)}>
              <option value="16">16 bytes (AES-128)</option>
              <option value="24">24 bytes (AES-192)</option>
              <option value="32">32 bytes (AES-256)</option>
            </select>
          </label>
        )}
        <Submit task={task} id="create-key-button">
          Create
        </Submit>
      </form>
      <TaskState task={task} what="Creating the key" />
    </Section>
  );
}

/** Opens a key by its ttag, or by an alias as `alias/<name>` (docs/spec.md §4.23 item 3). */
function OpenKey({ api, onOpened }: { api: ConsoleApi; onOpened: (key: ManagedKey) => void }) {
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
        <Field label="ttag or alias/<name>" id="open-ttag" required value={ttag} onValue={setTtag} />
        <Submit task={task}>Open</Submit>
      </form>
      <TaskState task={task} what="Reading the key" />
    </Section>
  );
}
