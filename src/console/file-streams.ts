/**
 * A local file passed through a stream transform in the page (keygate/client's encryptStream or
 * decryptStream): `onRead` hears how many of the file's bytes were read so far. The output is kept
 * in the page's memory and answered as a Blob only once the whole stream ended without an error, so
 * a failed decryption leaves nothing to offer: a consumer of a stream treats what it received as
 * incomplete until then (docs/spec.md §4.5a, Streams item 4). A failure is the transform's own error.
 */
export async function transformFile(
  file: Blob,
  transform: TransformStream<Uint8Array, Uint8Array>,
  onRead: (bytes: number) => void,
): Promise<Blob> {
  let read = 0;
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      read += chunk.byteLength;
      onRead(read);
      controller.enqueue(chunk);
    },
  });
  const reader = file.stream().pipeThrough(counted).pipeThrough(transform).getReader();
  const parts: BlobPart[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value as Uint8Array<ArrayBuffer>);
  }
  return new Blob(parts, { type: 'application/octet-stream' });
}

/** The name a stream of `name` is offered under: `<name>.kgst`. */
export function sealedFileName(name: string): string {
  return `${name}.kgst`;
}

/** The name the plaintext of the stream file `name` is offered under: without its `.kgst`, else `<name>.decrypted`. */
export function plainFileName(name: string): string {
  return name.endsWith('.kgst') && name.length > '.kgst'.length ? name.slice(0, -'.kgst'.length) : `${name}.decrypted`;
}
