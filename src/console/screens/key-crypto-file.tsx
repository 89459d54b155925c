import { useEffect, useState } from 'preact/hooks';
import type { EncryptionContext } from '../../wire/encryption-context.js';
import type { ConsoleApi } from '../console-api.js';
import { plainFileName, sealedFileName, transformFile } from '../file-streams.js';
import { TaskState, useTask } from '../ui.js';

/** A result offered for download: an object URL of the bytes kept in the page, and its name. */
interface Offered {
  readonly kind: 'sealed' | 'plain';
  readonly url: string;
  readonly name: string;
  readonly size: number;
}

/** How far a run has read its file. */
interface Progress {
  readonly read: number;
  readonly total: number;
}

/**
 * A local file encrypted or decrypted in the page as a stream of docs/spec.md §4.5a (Streams), under a
 * fresh data key of this key made with the editor's context: the page asks for the data key wrapped
 * to a non-extractable WebCrypto key of keygate/client and never sees it; the file's bytes never
 * leave the page. A stream file must be under this key with exactly the editor's context (none when
 * it is empty). The result is offered for download only once the whole stream was read without an
 * error (a segment that fails is STREAM_DECRYPT_FAILED, naming it).
 */
export function KeyCryptoFile({
  api,
  ttag,
  readContext,
  onUsed,
}: {
  api: ConsoleApi;
  ttag: string;
  readContext: () => EncryptionContext | undefined;
  onUsed: () => Promise<void>;
}) {
  const [plainFile, setPlainFile] = useState<File | undefined>(undefined);
  const [sealedFile, setSealedFile] = useState<File | undefined>(undefined);
  const [progress, setProgress] = useState<Progress | undefined>(undefined);
  const [offered, setOffered] = useState<Offered | undefined>(undefined);
  const task = useTask();
  useEffect(() => (offered === undefined ? undefined : () => URL.revokeObjectURL(offered.url)), [offered]);

  const run = async (
    file: File | undefined,
    kind: Offered['kind'],
    transform: (context: EncryptionContext | undefined) => TransformStream<Uint8Array, Uint8Array>,
  ) => {
    if (file === undefined) return;
    setOffered(undefined);
    setProgress({ read: 0, total: file.size });
    const result = await task.run(() => transformFile(file, transform(readContext()), (read) => setProgress({ read, total: file.size })));
    if (result === undefined) return;
    const name = kind === 'sealed' ? sealedFileName(file.name) : plainFileName(file.name);
    setOffered({ kind, url: URL.createObjectURL(result), name, size: result.size });
    await onUsed();
  };
  const encrypt = (event: Event) => {
    event.preventDefault();
    void run(plainFile, 'sealed', (context) => api.encryptStream(ttag, context));
  };
  const decrypt = (event: Event) => {
    event.preventDefault();
    void run(sealedFile, 'plain', (context) => api.decryptStream(ttag, context));
  };
  return (
    <div id="key-crypto-file">
      <h3>Encrypt and decrypt files</h3>
      <form onSubmit={encrypt}>
        <label>
          File <input id="crypto-file-plain" type="file" onChange={(e) => setPlainFile(chosen(e))} />
        </label>
        <button id="crypto-file-encrypt" type="submit" disabled={task.busy || plainFile === undefined}>
          Encrypt the file
        </button>
      </form>
      <form onSubmit={decrypt}>
        <label>
          Stream file (.kgst) <input id="crypto-file-sealed" type="file" accept=".kgst" onChange={(e) => setSealedFile(chosen(e))} />
        </label>
        <button id="crypto-file-decrypt" type="submit" disabled={task.busy || sealedFile === undefined}>
          Decrypt the file
        </button>
      </form>
      {progress === undefined ? null : (
        <p>
          Read{' '}
          <output id="crypto-file-progress" data-read={progress.read} data-total={progress.total}>
            {progress.read.toLocaleString('en')} of {progress.total.toLocaleString('en')} bytes
          </output>
        </p>
      )}
      {offered === undefined ? null : (
        <p>
          <a id="crypto-file-download" data-kind={offered.kind} href={offered.url} download={offered.name}>
            Download {offered.name}
          </a>{' '}
          <span class="muted">({offered.size.toLocaleString('en')} bytes)</span>
        </p>
      )}
      <TaskState task={task} what="Streaming the file" />
    </div>
  );
}

function chosen(event: Event): File | undefined {
  return (event.currentTarget as HTMLInputElement).files?.[0];
}
