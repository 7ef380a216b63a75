import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'items-client',
    include: ['src/**/*.test.ts'],
  },
})
