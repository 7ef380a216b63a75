import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'store-kit',
    include: ['src/**/*.test.ts'],
  },
})
