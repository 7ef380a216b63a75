import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Most suites wait on the processes they start (services, workerd, Chromium), not on the
    // CPU: three files at a time halve the run on two cores, where vitest's default runs one.
    maxWorkers: Math.max(3, availableParallelism() - 1),
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
