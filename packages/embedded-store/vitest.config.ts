import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'embedded-store',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
})
