import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      'packages/embedded-store',
      'packages/http-kit',
      'packages/items-client',
      'packages/mail-client',
      'packages/store-kit',
      'packages/test-kit',
      'items-service',
      'mail-service',
      'test',
    ],
  },
})
