import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: ['packages/embedded-store', 'items-service', 'mail-service', 'test'],
  },
})
