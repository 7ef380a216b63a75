import { defineConfig } from 'vitest/config'

// Tests that span the whole workspace: the Spacefile, the browser app over both micros, the bench.
export default defineConfig({
  test: {
    name: 'workspace',
    isolate: false, // why: the root's vitest.config.ts
    include: ['**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
