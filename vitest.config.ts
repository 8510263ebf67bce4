import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    alias: { '#protocol': fileURLToPath(new URL('./protocol/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration files each start their own server processes; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
})
