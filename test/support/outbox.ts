import { expect } from 'vitest'

/** The messages a mail-service in outbox mode kept, newest first. */
export async function outbox(url: string, apiKey: string): Promise<{ to: string }[]> {
  const response = await fetch(`${url}/outbox?limit=1000`, { headers: { 'x-apikey': apiKey } })
  expect(response.status).toBe(200)
  return (await response.json()) as { to: string }[]
}
