import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'test-kit',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
})
