import { type BuiltEntry, killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll } from 'vitest'
import { startService, temporaryDataDir } from './built-service.js'
import { WorkerUnderTest } from './worker-under-test.js'

/** A running items-service, whatever runs it, as a client and an operator see it. */
export interface RunningService {
  /** Sends `init` to `path` (starting with `/`) and answers what the client gets. */
  request(path: string, init?: RequestInit): Promise<Response>
  /** What the service printed to stdout so far: its request lines. */
  readonly stdout: string
  /** Stops the service and starts it again on the same data. */
  restart(): Promise<void>
  stop(): Promise<void>
}

/** Where the built service runs: `start` runs it with `settings` (as the environment gives them). */
export type Target = {
  name: 'node' | 'worker'
  start(settings: Record<string, string>): Promise<RunningService>
}

/** `node dist/server.js` on 127.0.0.1 and a free port, on a fresh `DATA_DIR` unless given one. */
export const nodeTarget: Target = {
  name: 'node',
  async start(settings) {
    const env = { DATA_DIR: await temporaryDataDir(), ...settings }
    let service: BuiltEntry = await startService(env)
    let earlier = ''
    return {
      request: (path, init) => fetch(service.url + path, init),
      get stdout() {
        return earlier + service.stdout
      },
      async restart() {
        await service.stop()
        earlier += service.stdout
        service = await startService(env)
      },
      async stop() {
        await service.stop()
      },
    }
  },
}

/** The Worker's bundle under Miniflare, its Durable Objects persisted in a fresh folder. */
export const workerTarget: Target = {
  name: 'worker',
  async start(settings) {
    const worker = await WorkerUnderTest.start(settings, await temporaryDataDir())
    return {
      request: (path, init) => worker.request(path, init),
      get stdout() {
        return worker.stdout
      },
      restart: () => worker.restart(),
      stop: () => worker.stop(),
    }
  },
}

export const targets: readonly Target[] = [nodeTarget, workerTarget]

/**
 * For a `describe` block: `target` started with `settings` before its tests, stopped after them.
 * @example const service = useRunning(target, { ITEMS_APIKEY: 'an-items-api-key' }); await service().request('/items')
 */
export function useRunning(target: Target, settings: Record<string, string>): () => RunningService {
  let running: RunningService | undefined
  beforeAll(async () => {
    running = await target.start(settings)
  })
  afterAll(async () => {
    await running?.stop()
    await killBuiltEntries()
  })
  return () => {
    if (!running) throw new Error(`the ${target.name} target did not start`)
    return running
  }
}
