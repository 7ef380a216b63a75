import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'items-service',
    isolate: false, // why: the root's vitest.config.ts
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
