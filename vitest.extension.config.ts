import { defineConfig } from 'vitest/config'
import { WxtVitest } from 'wxt/testing/vitest-plugin'

// The extension's own unit tests: WXT's plugin swaps `browser` for an in-memory fake (wxt/testing).
export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    include: ['extension/**/*.test.ts'],
    testTimeout: 15_000,
    maxWorkers: 2,
  },
})
