import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Real browser, real extension build, real server build: one file at a time, with time to spare.
export default defineConfig({
  resolve: {
    alias: { '#protocol': fileURLToPath(new URL('./protocol/index.ts', import.meta.url)) },
  },
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    retry: 0,
  },
})
