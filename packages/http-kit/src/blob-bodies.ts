/**
 * Which bodies go out as one `Blob` on the Workers runtime, by size. A `Response` made from bytes
 * copies them into a buffer of its own at every response; one made from a Blob shares the Blob's.
 * A smaller body (an item) costs less to copy than a Blob costs to make; a larger one's Blob
 * would hold its bytes a second time, in an isolate of 128 MB.
 */
export const blobBodyBytes = { from: 8 * 1024, upTo: 8 * 1024 * 1024 } as const

/** Whether a body of `byteLength` bytes is worth a Blob on the Workers runtime. */
export function worthABlob(byteLength: number): boolean {
  return byteLength >= blobBodyBytes.from && byteLength <= blobBodyBytes.upTo
}
