import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'mail-service',
    isolate: false, // why: the root's vitest.config.ts
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A certificate the test processes trust, for the Deta Base stand-in (the SDK speaks https).
    globalSetup: ['../packages/test-kit/src/tls.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
