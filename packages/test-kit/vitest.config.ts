import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'test-kit',
    isolate: false, // why: the root's vitest.config.ts
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
})
