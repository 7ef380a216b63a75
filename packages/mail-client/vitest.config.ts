import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'mail-client',
    include: ['src/**/*.test.ts'],
  },
})
