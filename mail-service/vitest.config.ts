import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'mail-service',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/tls.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
