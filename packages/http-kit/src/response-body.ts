/**
 * A JSON response's bytes as the runtime sends them best. On Node the adapter writes a body's bytes
 * to the socket as they are; the Workers runtime's own choice is `response-body.workerd.ts`
 * (package.json `imports`, condition `workerd`).
 */
export function responseBody(bytes: Uint8Array): Uint8Array | Blob {
  return bytes
}
