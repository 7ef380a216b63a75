import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'items-client',
    isolate: false, // why: the root's vitest.config.ts
    include: ['src/**/*.test.ts'],
  },
})
