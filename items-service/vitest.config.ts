import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'items-service',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
