import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: ['items-service', 'mail-service', 'test'],
  },
})
