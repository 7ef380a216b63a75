/**
 * A JSON answer's bytes as the Workers runtime sends them best. A `Response` made from bytes
 * copies them into a buffer of its own, at every answer; one made from a `Blob` shares the
 * Blob's. So bytes answered again unchanged (the list, between two writes) are kept as a Blob
 * from their second answer on: one copy for all the reads that follow, where each read made one.
 * The first answer sends the bytes, so that bytes answered once (a write's list) cost no more
 * than before. A small body (an item) is sent as it is: its copy costs less than a Blob. A
 * large one too: the Blob holds the bytes a second time, and the object's isolate has 128 MB.
 */
const shared = { from: 8 * 1024, upTo: 8 * 1024 * 1024 } as const
/** Each body's Blob once answered twice; `null` once answered once. */
const blobs = new WeakMap<Uint8Array, Blob | null>()

export function answerBody(bytes: Uint8Array): Uint8Array | Blob {
  if (bytes.byteLength < shared.from || bytes.byteLength > shared.upTo) return bytes
  const blob = blobs.get(bytes)
  if (blob) return blob
  if (blob === undefined) {
    blobs.set(bytes, null)
    return bytes
  }
  const made = new Blob([bytes as Uint8Array<ArrayBuffer>])
  blobs.set(bytes, made)
  return made
}
