import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Most suites wait on the processes they start (services, workerd, Chromium), not on the
    // CPU: three files at a time halve the run on two cores, where vitest's default runs one.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // Each project sets `isolate: false` (a project's own config does not inherit this one): a
    // worker runs its files one after another in one module graph, so hono, zod, the drivers
    // and the services' modules load once a worker, not once a file. That was a third of the
    // suite's CPU. A file that changes something global (timers, fetch, env) puts it back.
    projects: [
      'packages/embedded-store',
      'packages/http-kit',
      'packages/items-client',
      'packages/mail-client',
      'packages/store-kit',
      'packages/test-kit',
      'items-service',
      'mail-service',
      'test',
    ],
  },
})
