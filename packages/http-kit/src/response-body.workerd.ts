import { worthABlob } from './blob-bodies.js'

/**
 * A JSON response's bytes as the Workers runtime sends them best (`blob-bodies.ts`: a Response
 * shares a Blob's bytes, where it copies bytes at every response). Bytes answered again unchanged
 * (a list, between two writes) are kept as a Blob from their second response on: one copy for all
 * the reads that follow, where each read made one. The first response sends the bytes, so that
 * bytes answered once (a write's list) cost no more than before. Bodies outside
 * `blobBodyBytes` are sent as they are.
 */
/** Each body's Blob once answered twice; `null` once answered once. */
const blobs = new WeakMap<Uint8Array, Blob | null>()

export function responseBody(bytes: Uint8Array): Uint8Array | Blob {
  if (!worthABlob(bytes.byteLength)) return bytes
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
